// Plain-text tables, as kubectl prints them.

/** Left-aligned columns separated by three spaces, trailing spaces trimmed. */
export function table(rows) {
  const widths = [];
  for (const row of rows) row.forEach((cell, i) => (widths[i] = Math.max(widths[i] ?? 0, cell.length)));
  return rows.map((row) =>
    row
      .map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i] + 3)))
      .join('')
      .trimEnd(),
  );
}
