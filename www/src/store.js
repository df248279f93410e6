// The playground page's state, in one place (issue 20): everything main.js remembers between
// events (the mode and where the definition came from, the newest results, the workload object
// kept for completion, the timers, the load history, the theme) is a field of the one object
// `createPageState` makes. main.js and what it hands the state to read and update its fields;
// the object is sealed, so a misspelt field is a TypeError (in strict mode), never a new,
// silently unread one. What is saved or shared is not here: `state.js` writes the texts, the
// mode and the options into drafts and links.

/**
 * @typedef {object} PageState
 * @property {'catalog' | 'custom'} mode 'catalog': the definition follows the manifest's type;
 *   'custom': the editor's text, pinned
 * @property {string} origin where a custom definition started ("a copy of ...", "drafted from
 *   ..."), for the source line
 * @property {object | undefined} definitionSource the newest run's definitionSource (what the
 *   worker evaluated with)
 * @property {{text: string, origin: string} | undefined} putAside the custom text put aside when
 *   switching to catalog mode, restored when switching back
 * @property {boolean} following true while the page itself puts the followed entry into the
 *   editor (not an edit)
 * @property {object} options the options a link or draft carries
 * @property {object | null} editRequest what the edit panel asks the worker for (null:
 *   nothing); it rides along with every run
 * @property {string | undefined} chosenWorkload the workload the user picked when the manifest
 *   holds several (its `workloadKey`)
 * @property {string} engineVersion the engine's version once it is ready ('loading' before)
 * @property {{version: string, catalogSize: number} | undefined} engineInfo what the worker said
 *   when it was ready
 * @property {boolean} pageReady the editors exist: the first run may start once the engine is
 *   ready too
 * @property {boolean} waitingForEdit set when a run was stopped (watchdog) or the engine stopped
 *   on it (trap): nothing runs by itself again until the user edits or asks to run, so a
 *   runaway link cannot loop
 * @property {object | undefined} lastResult the newest result shown
 * @property {object | undefined} lastGoodView the newest view computed from readable texts
 * @property {object | null} selectedNode the role tree node selected (its source lines stay
 *   highlighted)
 * @property {number | undefined} restoreNode a share link's selected node (its position among
 *   the tree's nodes), selected once the first view is drawn
 * @property {object | undefined} manifestObject the workload of the newest run that could read
 *   one, as a plain object (for jq path completion and the API schema's type)
 * @property {string | undefined} manifestObjectText the manifest text `manifestObject` was read from
 * @property {string | undefined} manifestObjectWorkload the workload of `manifestObject` (its
 *   key), so another choice fetches its object
 * @property {string | undefined} requestedManifest the manifest text the newest run carried
 * @property {ReturnType<typeof setTimeout> | undefined} debounce the run waiting for a pause in typing
 * @property {boolean} runPending an edit waits for its run (the debounce): a result shown meanwhile is not the editors' yet
 * @property {ReturnType<typeof setTimeout> | undefined} draftTimer the local draft waiting to be saved
 * @property {object[]} loadHistory the states an example load replaced, for "Undo load"
 * @property {Promise<object> | undefined} catalogTexts the catalog's texts (examples.json),
 *   fetched once when an example is first chosen
 * @property {{cases: object[], render: () => void, add: (cases: object[]) => string[], definitionChanged: () => void, rerun: () => Promise<void>} | undefined} casesPanel
 *   the Test cases card, made once the editors exist
 * @property {{setReadOnly: (readOnly: boolean) => void} | undefined} definitionTools the
 *   definition editor's tools (Format, Open, URL, Copy, Download), made with the editors
 * @property {{setReadOnly: (readOnly: boolean) => void} | undefined} manifestTools the manifest
 *   editor's tools
 * @property {{definitionChanged: () => void} | undefined} timeline the Timeline card, made once
 *   the editors exist
 * @property {object | null} jsonView the view the JSON tab shows (written out only when the tab
 *   is shown, copied or downloaded)
 * @property {string | undefined} jsonText `jsonView` as indented JSON, once written
 * @property {boolean} jsonDrawn the JSON tab holds `jsonText`
 * @property {'auto' | 'light' | 'dark'} theme the theme chosen (saved in local storage)
 */

/** The page's state at load, before the editors, the engine or a result exist. */
export function createPageState() {
  /** @type {PageState} */
  const state = {
    mode: 'catalog',
    origin: '',
    definitionSource: undefined,
    putAside: undefined,
    following: false,
    options: {},
    editRequest: null,
    chosenWorkload: undefined,
    engineVersion: 'loading',
    engineInfo: undefined,
    pageReady: false,
    waitingForEdit: false,
    lastResult: undefined,
    lastGoodView: undefined,
    selectedNode: null,
    restoreNode: undefined,
    manifestObject: undefined,
    manifestObjectText: undefined,
    manifestObjectWorkload: undefined,
    requestedManifest: undefined,
    debounce: undefined,
    runPending: false,
    draftTimer: undefined,
    loadHistory: [],
    catalogTexts: undefined,
    casesPanel: undefined,
    timeline: undefined,
    definitionTools: undefined,
    manifestTools: undefined,
    jsonView: null,
    jsonText: undefined,
    jsonDrawn: false,
    theme: 'auto',
  };
  return Object.seal(state);
}
