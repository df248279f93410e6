// The dashboard example: a List file the user picks or drops, shown by <workload-map-table>
// (the package's element, copied next to this page by www/build.mjs). The file is read in the
// browser and never leaves it. Which objects are workloads, and which belong to none, is the
// core's reading (`resolveAll`): both are rows of the table, none is dropped.
import './element/element.mjs';

const table = /** @type {HTMLElementTagNameMap['workload-map-table']} */ (document.getElementById('table'));
const status = document.getElementById('status');
const drop = document.getElementById('drop');

function say(text, error = false) {
  status.textContent = text;
  status.classList.toggle('error', error);
}

async function load(file) {
  if (!file) return;
  say(`Reading ${file.name}…`);
  table.objects = await file.text();
}

table.addEventListener('wm-diagnostics', (event) => {
  const { error, diagnostics } = event.detail;
  if (error) {
    say(error, true);
    return;
  }
  const problems = diagnostics.filter((d) => d.severity === 'error' || d.severity === 'warning');
  const none = table.unowned.length;
  const workloads = `${table.items.length} workload${table.items.length === 1 ? '' : 's'}${none ? ` · ${none} object${none === 1 ? '' : 's'} of no workload` : ''}`;
  say(
    `${workloads}${
      problems.length
        ? ` · ${problems.length} problem${problems.length === 1 ? '' : 's'}: ${problems
            .slice(0, 3)
            .map((d) => d.message)
            .join('; ')}`
        : ''
    }`,
    problems.some((d) => d.severity === 'error'),
  );
});

document.getElementById('file').addEventListener('change', (event) => load(/** @type {HTMLInputElement} */ (event.target).files?.[0]));
for (const type of ['dragenter', 'dragover']) {
  drop.addEventListener(type, (event) => {
    event.preventDefault();
    drop.classList.add('over');
  });
}
drop.addEventListener('dragleave', () => drop.classList.remove('over'));
drop.addEventListener('drop', (event) => {
  event.preventDefault();
  drop.classList.remove('over');
  load(event.dataTransfer?.files?.[0]);
});
