// `workload-map/element`: <workload-map-view> and <workload-map-table>, defined on import (once
// per page; a second copy of the package leaves the first definitions in place).

import { WorkloadMapTable } from './table.mjs';
import { WorkloadMapView } from './view.mjs';

export { PHASE_SEVERITY } from './table.mjs';
export { SECTIONS } from './view.mjs';
export { WorkloadMapTable, WorkloadMapView };

if (typeof customElements !== 'undefined') {
  if (!customElements.get('workload-map-view')) customElements.define('workload-map-view', WorkloadMapView);
  if (!customElements.get('workload-map-table')) customElements.define('workload-map-table', WorkloadMapTable);
}
