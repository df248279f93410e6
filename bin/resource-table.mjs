// The Resources table of `describe`: the view's `table` as cells, nothing computed or formatted
// here (the core's resources table and amount texts are the one source of the numbers, so the
// CLI, the playground and the web component print the same rows).

/**
 * The Resources table of a view as cells: its rows and TOTAL exactly as the view's `table` says
 * them (the core computes and formats every amount). `wide` adds PODS (ready/current) and NODES
 * when pods were given.
 */
export function resourceCells(view, { wide = false } = {}) {
  const podColumns = wide && Boolean(view.pods);
  const cells = [];
  const podCells = (pods, nodes) => [`${pods.ready ?? 0}/${pods.current ?? 0}`, (nodes ?? []).join(',') || '<none>'];
  for (const row of view.table.rows) {
    cells.push([row.name, row.pods.text, row.total.text.gpus, row.total.text.cpu, row.total.text.memory, ...(podColumns ? podCells(row.pods, row.nodes) : [])]);
  }
  const total = view.resources.text;
  const allNodes = [...new Set(view.table.rows.flatMap((row) => row.nodes ?? []))].sort();
  cells.push(['TOTAL', view.table.pods.text, total.gpus, total.cpu, total.memory, ...(podColumns ? podCells(view.table.pods, allNodes) : [])]);
  return { header: ['COMPONENT', 'REPLICAS', 'GPU', 'CPU', 'MEMORY', ...(podColumns ? ['PODS', 'NODES'] : [])], cells };
}
