//! The link stack of WAD links and level mesh trees: opcodes ↔ parent indices.
//!
//! Opcode bit 0 pops the parent from the stack, bit 1 pushes it (so 3 reads the top); without
//! either, a mesh hangs from the previous one. Real files pop more than they push: the root
//! stays at the bottom of the stack and is what an empty stack yields.

/// The parent of each mesh after the root, from the stored opcodes.
pub fn parents_from_ops(ops: &[i32]) -> Vec<usize> {
    let mut stack = Vec::new();
    let mut previous = 0usize;
    let mut parents = Vec::with_capacity(ops.len());
    for (i, &op) in ops.iter().enumerate() {
        let mut parent = previous;
        if op & 1 != 0 {
            parent = stack.pop().unwrap_or(0);
        }
        if op & 2 != 0 {
            stack.push(parent);
        }
        parents.push(parent);
        previous = i + 1;
    }
    parents
}

/// Canonical opcodes for a hierarchy, or the index of the first mesh that a depth-first mesh
/// order cannot reach (its parent is neither the previous mesh nor an open ancestor).
pub fn ops_from_parents(parents: &[usize]) -> Result<Vec<i32>, usize> {
    let n = parents.len() + 1;
    // The last child of each mesh decides when it can leave the stack.
    let mut last_child = vec![0usize; n];
    for (i, &p) in parents.iter().enumerate() {
        if p >= n {
            return Err(i + 1);
        }
        last_child[p] = i + 1;
    }
    let mut stack: Vec<usize> = Vec::new();
    let mut ops = Vec::with_capacity(parents.len());
    for (i, &parent) in parents.iter().enumerate() {
        let mesh = i + 1;
        let more_children_later = last_child[parent] > mesh;
        let op = if parent == mesh - 1 {
            if more_children_later {
                stack.push(parent);
                2
            } else {
                0
            }
        } else if stack.last() == Some(&parent) {
            if more_children_later {
                3
            } else {
                stack.pop();
                1
            }
        } else {
            return Err(mesh);
        };
        ops.push(op);
    }
    Ok(ops)
}

/// How many parents `ops` hold on the stack at most: the game keeps one matrix per entry while
/// it draws the object, in a stack of fixed size.
pub(crate) fn stack_depth(ops: &[i32]) -> usize {
    let (mut depth, mut deepest) = (0usize, 0usize);
    for &op in ops {
        if op & 1 != 0 {
            depth = depth.saturating_sub(1);
        }
        if op & 2 != 0 {
            depth += 1;
            deepest = deepest.max(depth);
        }
    }
    deepest
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lara_opcodes_give_the_documented_hierarchy() {
        let ops = [2, 0, 0, 3, 0, 0, 1, 2, 0, 0, 3, 0, 0, 1];
        let parents = parents_from_ops(&ops);
        assert_eq!(parents, vec![0, 1, 2, 0, 4, 5, 0, 7, 8, 9, 7, 11, 12, 7]);
        assert_eq!(ops_from_parents(&parents).unwrap(), ops);
    }

    #[test]
    fn stack_depth_counts_the_open_pushes() {
        assert_eq!(stack_depth(&[2, 0, 0, 3, 0, 0, 1, 2, 0, 0, 3, 0, 0, 1]), 1);
        assert_eq!(
            stack_depth(&[2, 2, 0, 0, 3, 0, 0, 1, 0, 1, 2, 0, 0, 0, 3, 0, 0, 1, 0, 0]),
            2
        );
        // A pop on an empty stack (real files have them) does not go below zero.
        assert_eq!(stack_depth(&[1, 1, 2, 2, 1, 2]), 2);
        assert_eq!(stack_depth(&[]), 0);
    }

    #[test]
    fn four_legged_opcodes_round_trip() {
        // The crocodile of the WAD document: 21 meshes.
        let ops = [2, 2, 0, 0, 3, 0, 0, 1, 0, 1, 2, 0, 0, 0, 3, 0, 0, 1, 0, 0];
        let parents = parents_from_ops(&ops);
        assert_eq!(parents[..10], [0, 1, 2, 3, 1, 5, 6, 1, 8, 0]);
        assert_eq!(ops_from_parents(&parents).unwrap(), ops);
    }

    #[test]
    fn extra_pop_on_an_empty_stack_yields_the_root() {
        assert_eq!(parents_from_ops(&[0, 1]), vec![0, 0]);
        assert_eq!(parents_from_ops(&[2, 1, 1, 1]), vec![0, 0, 0, 0]);
    }

    #[test]
    fn order_that_is_not_depth_first_is_refused() {
        // Mesh 3 hangs from mesh 1, whose subtree was already left behind.
        assert_eq!(ops_from_parents(&[0, 0, 1]), Err(3));
    }
}
