//! Independent jobs in parallel, their results in order: import makes a directory's objects and
//! build reads them this way, so that what they write does not depend on the thread count.
//! Called on one of rayon's threads (a command over a folder runs its files in parallel), the
//! jobs run in order on that thread: parallelism does not nest, so a run holds one file per
//! thread.

use rayon::prelude::*;

/// `make` applied to every object on rayon's threads, the results in object order.
/// `progress(done, total, slot)` is called on the calling thread as objects finish, with the slot
/// `finished` names for a result (`None`: a failed object, not counted).
pub fn in_parallel<T: Sync, R: Send>(
    objects: &[T],
    make: impl Fn(&T) -> R + Sync,
    finished: impl Fn(&R) -> Option<String> + Sync,
    progress: &mut dyn FnMut(usize, usize, &str),
) -> Vec<R> {
    let total = objects.len();
    if rayon::current_thread_index().is_some() {
        let mut done = 0;
        return objects
            .iter()
            .map(|o| {
                let made = make(o);
                if let Some(slot) = finished(&made) {
                    done += 1;
                    progress(done, total, &slot);
                }
                made
            })
            .collect();
    }
    let (done_tx, done_rx) = std::sync::mpsc::channel::<String>();
    let (make, finished) = (&make, &finished);
    std::thread::scope(|scope| {
        let worker = scope.spawn(move || {
            objects
                .par_iter()
                .map(|o| {
                    let made = make(o);
                    if let Some(slot) = finished(&made) {
                        // The receiver lives until the scope ends: a send cannot fail before.
                        let _ = done_tx.send(slot);
                    }
                    made
                })
                .collect::<Vec<_>>()
        });
        for (done, slot) in done_rx.iter().enumerate() {
            progress(done + 1, total, &slot);
        }
        worker
            .join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_come_in_object_order_and_progress_counts_the_finished() {
        let objects: Vec<u32> = (0..50).collect();
        let mut reported = Vec::new();
        let made = in_parallel(
            &objects,
            |&n| if n % 10 == 3 { Err(n) } else { Ok(n * 2) },
            |r| r.as_ref().ok().map(|n| format!("slot {n}")),
            &mut |done, total, slot| reported.push((done, total, slot.to_string())),
        );
        assert_eq!(
            made,
            objects
                .iter()
                .map(|&n| if n % 10 == 3 { Err(n) } else { Ok(n * 2) })
                .collect::<Vec<_>>()
        );
        assert_eq!(reported.len(), 45);
        assert_eq!(
            reported.iter().map(|r| r.0).collect::<Vec<_>>(),
            (1..=45).collect::<Vec<_>>()
        );
        assert!(reported.iter().all(|r| r.1 == 50));
    }

    #[test]
    fn inside_rayon_the_jobs_run_in_order_on_the_calling_thread() {
        let pool = rayon::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
        let objects: Vec<u32> = (0..20).collect();
        let (caller, ran_on, reported) = pool.install(|| {
            let mut reported = Vec::new();
            let ran_on = in_parallel(
                &objects,
                |_| (rayon::current_thread_index(), std::thread::current().id()),
                |_| Some(String::new()),
                &mut |done, _, _| reported.push(done),
            );
            (std::thread::current().id(), ran_on, reported)
        });
        assert!(ran_on
            .iter()
            .all(|&(index, thread)| index.is_some() && thread == caller));
        assert_eq!(reported, (1..=20).collect::<Vec<_>>());
    }
}
