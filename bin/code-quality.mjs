// GitLab code quality report (`validate -o codequality`): the CodeClimate subset GitLab reads,
// so that problems show in merge requests. Paths are relative to the working folder (run it
// from the repository root), as GitLab matches them against the changed files.

import { createHash } from 'node:crypto';
import path from 'node:path';

const SEVERITY = { error: 'major', warning: 'minor', info: 'info' };

/** The report of a validate run's results (see sarif.mjs for their shape). */
export function codeQualityReport(results, cwd = process.cwd()) {
  const issues = [];
  for (const result of results) {
    const file = relative(result.file, cwd);
    if (!result.readable) {
      issues.push(issue({ check: 'unreadable', description: result.error, severity: 'blocker', file, line: result.line ?? 1 }));
      continue;
    }
    for (const d of result.diagnostics) {
      const description = d.help ? `${d.message} (help: ${d.help})` : d.message;
      issues.push(issue({ check: d.code, description, severity: SEVERITY[d.severity] ?? 'info', file, line: d.line ?? 1, column: d.column }));
    }
  }
  return issues;
}

/** @param {{check: string, description: string, severity: string, file: string, line: number, column?: number}} problem */
function issue({ check, description, severity, file, line, column }) {
  // Identifies the issue across runs (GitLab compares the reports of two branches by it).
  const fingerprint = createHash('sha256')
    .update([file, check, line, column ?? '', description].join('\0'))
    .digest('hex');
  return { description, check_name: check, fingerprint, severity, location: { path: file, lines: { begin: line } } };
}

function relative(file, cwd) {
  if (file === 'stdin') return file;
  const inside = path.relative(cwd, path.resolve(cwd, file));
  return inside.startsWith('..') || path.isAbsolute(inside) ? file : inside.split(path.sep).join('/');
}
