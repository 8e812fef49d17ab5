#!/usr/bin/env node
// Runs the Khronos glTF validator (npm "gltf-validator", installed by
// tests/harness/setup.sh into target/harness/node) on each file given and
// prints ONE JSON document to stdout:
//
//   {"validator": "<version>",
//    "files": [{"path": ..., "errors": N, "warnings": N, "infos": N, "hints": N,
//               "truncated": bool,
//               "messages": [{"code", "message", "severity", "pointer"}, ...]}]}
//
// "severity" is one of "error", "warning", "info", "hint". All issues are
// reported (maxIssues = 0). External resources of a .gltf (.bin, .png, ...)
// are loaded relative to the .gltf's folder; data: URIs are handled by the
// validator itself.
//
// Exit code: 0 when every file could be read and validated, whatever the
// validator found (the caller judges); 2 when a file could not be read or the
// validator rejected it outright (e.g. neither glTF JSON nor GLB) — such a
// file still gets an entry, with "fatal": "<reason>" and errors = 1; 64 on a
// usage error. Set GLTF_VALIDATOR_DIR to use a validator installed elsewhere.
import { createRequire } from 'node:module';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(here, '..', '..');
const validatorDir = process.env.GLTF_VALIDATOR_DIR
  || path.join(repoRoot, 'target', 'harness', 'node', 'node_modules', 'gltf-validator');

let validator;
try {
  validator = createRequire(import.meta.url)(validatorDir);
} catch (e) {
  process.stderr.write(`validate.mjs: cannot load gltf-validator from ${validatorDir}: ${e.message}\n`
    + 'run tests/harness/setup.sh first\n');
  process.exit(3);
}

const SEVERITY = ['error', 'warning', 'info', 'hint'];

const files = process.argv.slice(2);
if (files.length === 0) {
  process.stderr.write('usage: node tests/harness/validate.mjs FILE.glb|FILE.gltf ...\n');
  process.exit(64);
}

async function validateOne(file) {
  const abs = path.resolve(file);
  const dir = path.dirname(abs);
  let bytes;
  try {
    bytes = await readFile(abs);
  } catch (e) {
    return { entry: fatalEntry(file, `cannot read file: ${e.message}`), readable: false };
  }
  const ext = path.extname(abs).toLowerCase();
  const options = {
    uri: path.basename(abs),
    maxIssues: 0,
    writeTimestamp: false,
    externalResourceFunction: async (uri) => {
      const p = path.resolve(dir, decodeURIComponent(uri));
      return new Uint8Array(await readFile(p));
    },
  };
  if (ext === '.glb') options.format = 'glb';
  else if (ext === '.gltf') options.format = 'gltf';
  let report;
  try {
    report = await validator.validateBytes(new Uint8Array(bytes), options);
  } catch (e) {
    return { entry: fatalEntry(file, `validator rejected file: ${String(e)}`), readable: false };
  }
  const issues = report.issues || {};
  const messages = (issues.messages || []).map((m) => ({
    code: m.code,
    message: m.message,
    severity: SEVERITY[m.severity] ?? String(m.severity),
    pointer: m.pointer ?? (m.offset !== undefined ? `@${m.offset}` : null),
  }));
  return {
    entry: {
      path: file,
      errors: issues.numErrors ?? 0,
      warnings: issues.numWarnings ?? 0,
      infos: issues.numInfos ?? 0,
      hints: issues.numHints ?? 0,
      truncated: Boolean(issues.truncated),
      messages,
    },
    readable: true,
  };
}

function fatalEntry(file, reason) {
  return {
    path: file, errors: 1, warnings: 0, infos: 0, hints: 0, truncated: false, fatal: reason,
    messages: [{ code: 'HARNESS_UNREADABLE', message: reason, severity: 'error', pointer: null }],
  };
}

const out = { validator: validator.version(), files: [] };
let allReadable = true;
for (const f of files) {
  const { entry, readable } = await validateOne(f);
  out.files.push(entry);
  allReadable &&= readable;
}
process.stdout.write(JSON.stringify(out, null, 1) + '\n');
process.exit(allReadable ? 0 : 2);
