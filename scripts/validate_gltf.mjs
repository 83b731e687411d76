#!/usr/bin/env node
// SPDX-License-Identifier: MIT
// Validates one .gltf or .glb file with the Khronos glTF-Validator and prints a JSON summary:
//   {"file", "validatorVersion", "numErrors", "numWarnings", "numInfos", "numHints",
//    "messages": [{"code", "severity", "pointer", "message"}]}
// severity is "error", "warning", "info" or "hint". External buffers and images are loaded from
// the file's folder. Exit status: 0 without errors, 1 with errors, 2 when the file cannot be read
// or the validator is not installed (scripts/deps.sh installs it).
//
// The validator package is looked up in $CRITTER_GLTF_VALIDATOR (a node_modules folder) when set,
// else in build/validator/node_modules of this repository.
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const modules = process.env.CRITTER_GLTF_VALIDATOR ||
    path.join(here, '..', 'build', 'validator', 'node_modules');

function die(message) {
  process.stderr.write(`validate_gltf: ${message}\n`);
  process.exit(2);
}

if (process.argv.length !== 3) die('usage: validate_gltf.mjs FILE');
const file = path.resolve(process.argv[2]);

let validator;
try {
  validator = createRequire(path.join(modules, 'index.js'))('gltf-validator');
} catch (e) {
  die(`gltf-validator not found under ${modules} (run scripts/deps.sh)`);
}

let bytes;
try {
  bytes = fs.readFileSync(file);
} catch (e) {
  die(`cannot read ${file}: ${e.message}`);
}

const severities = ['error', 'warning', 'info', 'hint'];

try {
  const report = await validator.validateBytes(new Uint8Array(bytes), {
    uri: path.basename(file),
    maxIssues: 0,
    writeTimestamp: false,
    externalResourceFunction: (uri) => new Promise((resolve, reject) => {
      const resolved = path.resolve(path.dirname(file), decodeURIComponent(uri));
      fs.readFile(resolved, (err, data) => err ? reject(err.toString()) : resolve(data));
    }),
  });
  const issues = report.issues;
  const summary = {
    file,
    validatorVersion: report.validatorVersion,
    numErrors: issues.numErrors,
    numWarnings: issues.numWarnings,
    numInfos: issues.numInfos,
    numHints: issues.numHints,
    messages: issues.messages.map((m) => ({
      code: m.code,
      severity: severities[m.severity] ?? String(m.severity),
      pointer: m.pointer ?? null,
      message: m.message,
    })),
  };
  process.stdout.write(JSON.stringify(summary, null, 1) + '\n');
  process.exit(issues.numErrors > 0 ? 1 : 0);
} catch (e) {
  die(`validation failed: ${e}`);
}
