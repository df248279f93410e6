//! Shared by the data-driven test files: reading case files and checking a view against the
//! `expect:` block they carry. The case format is documented in `tests/README.md`.

use std::path::{Path, PathBuf};

use serde_json::Value;
use workload_map::view::{Component, Instance, View};

/// Runs `run_case` on every YAML file of `tests/fixtures/<folder>` (at least `min` of them),
/// printing `ok` per passing file, and fails with every problem of every failing file.
pub fn check_fixture_folder(folder: &str, min: usize, run_case: impl Fn(&Path) -> Vec<String>) {
    let dir = repo().join("tests/fixtures").join(folder);
    let files = yaml_files(&dir);
    assert!(files.len() >= min, "fixtures missing in {}", dir.display());
    let mut failures = Vec::new();
    for file in &files {
        let problems = run_case(file);
        let name = file.file_name().unwrap_or_default().to_string_lossy();
        if problems.is_empty() {
            println!("ok   {name}");
        } else {
            failures.push(format!("{name}:\n  {}", problems.join("\n  ")));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Resolves a case file that names a `catalog` entry or carries an inline `definition`, with its
/// `related` objects when given, and checks its `expect:` block.
pub fn run_related_case(path: &Path) -> Vec<String> {
    let case = read_yaml(path);
    let definition = match case["catalog"].as_str() {
        Some(name) => {
            let entry = workload_map::catalog::entries()
                .iter()
                .find(|e| e.name == name)
                .unwrap_or_else(|| panic!("no catalog entry {name}"));
            workload_map::CompiledDefinition::from_text(entry.text)
        }
        None => workload_map::CompiledDefinition::from_json(&case["definition"]),
    };
    let view = resolve_case(&definition, &case, &case["object"]);
    check(&view, &case["expect"])
}

/// The repository root.
/// The one wall-clock bound a test may assert: a guard against a real hang, never a speed
/// check (a test must pass on a machine whose cores are busy with other work). What bounds a
/// runaway input is the budget error that stopped it, which every such test asserts; speed is
/// measured by the benches.
pub const HANG_GUARD: std::time::Duration = std::time::Duration::from_secs(60);

/// Fails when `elapsed` is past [`HANG_GUARD`], naming `what`.
pub fn assert_no_hang(elapsed: std::time::Duration, what: &str) {
    assert!(
        elapsed < HANG_GUARD,
        "{what} ran {elapsed:?}, past the hang guard of {HANG_GUARD:?}"
    );
}

pub fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// `<repo>/../shared/<name>` (`conformance`, `crds`): the shared recordings, read in place.
///
/// `None` (after saying so) when the folder is absent, so that a checkout without it still runs
/// our own fixtures; under `CI=true` its absence fails the calling test instead: a run that
/// cannot see the corpus must not pass as if it had checked it.
pub fn shared_dir(name: &str) -> Option<PathBuf> {
    shared_dir_in(&repo().join("..").join("shared"), name, ci())
}

/// [`shared_dir`] under `shared`, with `ci` standing for `CI=true`.
fn shared_dir_in(shared: &Path, name: &str, ci: bool) -> Option<PathBuf> {
    let dir = shared.join(name);
    if dir.is_dir() {
        return Some(dir);
    }
    assert!(
        !ci,
        "the shared corpus is missing at {} (CI=true: tests that read it fail instead of skipping)",
        dir.display()
    );
    println!(
        "shared corpus not found at {}: skipping the part that reads it, our own fixtures still run",
        dir.display()
    );
    None
}

/// True when `CI=true` (then a missing shared corpus fails, see [`shared_dir`]).
pub fn ci() -> bool {
    std::env::var("CI").as_deref() == Ok("true")
}

#[test]
fn a_missing_shared_corpus_is_skipped_locally() {
    let nowhere = repo().join("tests").join("fixtures");
    assert_eq!(shared_dir_in(&nowhere, "no-such-corpus", false), None);
    assert!(shared_dir_in(&repo(), "tests", true).is_some());
}

#[test]
#[should_panic(expected = "CI=true")]
fn a_missing_shared_corpus_fails_under_ci() {
    let nowhere = repo().join("tests").join("fixtures");
    shared_dir_in(&nowhere, "no-such-corpus", true);
}

/// `<repo>/../shared/conformance` (see [`shared_dir`]).
pub fn conformance_dir() -> Option<PathBuf> {
    shared_dir("conformance")
}

/// Reads a YAML/JSON file into JSON through our own reader.
pub fn read_yaml(path: &Path) -> Value {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut docs = workload_map::object::parse_objects(&text)
        .unwrap_or_else(|d| panic!("{}: {}", path.display(), d.message));
    assert_eq!(docs.len(), 1, "{}: expected one document", path.display());
    docs.remove(0)
}

/// Every `*.yaml` file in `dir`, sorted.
pub fn yaml_files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|rd| rd.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default();
    files.retain(|p| p.extension().is_some_and(|e| e == "yaml" || e == "yml"));
    files.sort();
    files
}

/// Every `*.yaml` file below `dir`, in any folder depth, sorted (the corpus's recordings).
pub fn yaml_files_under(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).into_iter().flatten().flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "yaml") {
                out.push(path);
            }
        }
    }
    out.sort();
    out
}

/// Compares `view` with an `expect:` block through the core's case checker
/// (`workload_map::cases::check_view`, the one `workload-map test` uses); returns one line per
/// malformed expectation and per mismatch.
pub fn check(view: &View, expect: &Value) -> Vec<String> {
    let checked = workload_map::cases::check_view(view, expect);
    let mut problems: Vec<String> = checked
        .diagnostics
        .iter()
        .map(|d| {
            format!(
                "malformed expectation at {}: {} {}",
                d.path, d.code, d.message
            )
        })
        .collect();
    problems.extend(
        checked
            .expectations
            .iter()
            .filter(|e| !e.passed)
            .map(failure_line),
    );
    problems
}

/// One line for a failed expectation: what, expected, actual, and the note when there is one.
pub fn failure_line(e: &workload_map::cases::Expectation) -> String {
    let note = e
        .note
        .as_deref()
        .map(|n| format!(": {n}"))
        .unwrap_or_default();
    format!(
        "{} ({}): expected {}, got {}{note}",
        e.label, e.path, e.expected, e.actual
    )
}

/// Resolves a case's object, with its `related` objects (pods and owners, as one list) when it
/// has them.
pub fn resolve_case(
    definition: &workload_map::CompiledDefinition,
    case: &Value,
    object: &Value,
) -> View {
    match case.get("related").and_then(Value::as_array) {
        Some(related) => {
            let related = workload_map::Related::from_objects(related.iter().cloned());
            definition.resolve_related(object.clone(), Some(&related))
        }
        None => definition.resolve(object),
    }
}

/// One STATE event of a recording: the object, the recorded state and the phases upstream
/// matched when it was recorded. `index` counts every event (ACTION ones too), as the
/// corpus' expectations do.
pub struct RecordedEvent {
    pub index: usize,
    pub object: Value,
    pub state: String,
    pub recorded: Vec<String>,
}

/// The STATE events of one recording file.
pub fn recorded_events(path: &Path) -> Vec<RecordedEvent> {
    let recording = read_yaml(path);
    let events = recording["events"].as_array().cloned().unwrap_or_default();
    events
        .into_iter()
        .enumerate()
        .filter(|(_, e)| e["kind"] == "STATE")
        .map(|(index, mut e)| RecordedEvent {
            index,
            object: e["object"].take(),
            state: e["state"].as_str().unwrap_or("Undefined").to_owned(),
            recorded: e["phases"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(Value::as_str)
                .map(str::to_owned)
                .collect(),
        })
        .collect()
}

/// Per-type counts of a replay.
#[derive(Default)]
pub struct Tally {
    pub events: usize,
    pub contained: usize,
    pub exact: usize,
    /// Events listed as known differences (asserted explicitly).
    pub listed: usize,
}

impl Tally {
    /// Counts one event: whether `state` is among `phases` and whether the lists are equal.
    pub fn count(&mut self, phases: &[String], event: &RecordedEvent, listed: bool) {
        self.events += 1;
        if listed {
            self.listed += 1;
        } else if phases.contains(&event.state) {
            self.contained += 1;
        }
        if phases == event.recorded.as_slice() {
            self.exact += 1;
        }
    }
}

/// Prints one row per type and a TOTAL row; returns the total.
pub fn print_tally(rows: &std::collections::BTreeMap<String, Tally>, listed: &str) -> Tally {
    println!(
        "{:<55} {:>6} {:>9} {:>6} {:>9}",
        "type", "events", "contained", "exact", listed
    );
    let mut total = Tally::default();
    for (kind, t) in rows {
        println!(
            "{kind:<55} {:>6} {:>9} {:>6} {:>9}",
            t.events, t.contained, t.exact, t.listed
        );
        total.events += t.events;
        total.contained += t.contained;
        total.exact += t.exact;
        total.listed += t.listed;
    }
    println!(
        "{:<55} {:>6} {:>9} {:>6} {:>9}",
        "TOTAL", total.events, total.contained, total.exact, total.listed
    );
    total
}

/// RFC 6902 `add`, `remove` and `replace`, written from the RFC, independent of the crate.
pub fn apply_patch(doc: &Value, patch: &Value) -> Result<Value, String> {
    let mut doc = doc.clone();
    for op in patch.as_array().ok_or("patch is not an array")? {
        let path = op["path"].as_str().ok_or("no path")?;
        let tokens: Vec<String> = path
            .split('/')
            .skip(1)
            .map(|t| t.replace("~1", "/").replace("~0", "~"))
            .collect();
        let (last, parents) = tokens.split_last().ok_or("the patch replaces the root")?;
        let mut parent = &mut doc;
        for t in parents {
            parent = match parent {
                Value::Object(o) => o.get_mut(t).ok_or(format!("{path}: no {t}"))?,
                Value::Array(a) => {
                    let i: usize = t.parse().map_err(|_| format!("{path}: bad index {t}"))?;
                    a.get_mut(i).ok_or(format!("{path}: no element {i}"))?
                }
                _ => return Err(format!("{path}: {t} is inside a scalar")),
            };
        }
        let value = op.get("value").cloned();
        match (op["op"].as_str(), parent) {
            (Some("add"), Value::Object(o)) => {
                o.insert(last.clone(), value.ok_or("add without value")?);
            }
            (Some("add"), Value::Array(a)) => {
                let i = if last == "-" {
                    a.len()
                } else {
                    last.parse().map_err(|_| "bad index")?
                };
                if i > a.len() {
                    return Err(format!("{path}: index past the end"));
                }
                a.insert(i, value.ok_or("add without value")?);
            }
            (Some("replace"), Value::Object(o)) if o.contains_key(last) => {
                o.insert(last.clone(), value.ok_or("replace without value")?);
            }
            (Some("replace"), Value::Array(a)) => {
                let i: usize = last.parse().map_err(|_| "bad index")?;
                *a.get_mut(i).ok_or(format!("{path}: no element"))? = value.ok_or("no value")?;
            }
            (Some("remove"), Value::Object(o)) => {
                o.remove(last).ok_or(format!("{path}: nothing to remove"))?;
            }
            (Some("remove"), Value::Array(a)) => {
                let i: usize = last.parse().map_err(|_| "bad index")?;
                if i >= a.len() {
                    return Err(format!("{path}: nothing to remove"));
                }
                a.remove(i);
            }
            (op, _) => return Err(format!("{path}: {op:?} does not apply here")),
        }
    }
    Ok(doc)
}

/// Finds a component or instance by path: component names from the root joined by `/`, an
/// instance as `name[id]` (`jobset/replicatedjob[workers]`), in the typed view (for tests that
/// read fields the case format does not have, such as source ranges; cases use `cases::run_case`).
pub enum Found<'v> {
    Component(&'v Component),
    Instance(&'v Instance),
}

pub fn find<'v>(view: &'v View, path: &str) -> Option<Found<'v>> {
    let mut segments = path.split('/');
    let mut current: Found<'v> = step(std::slice::from_ref(view.root.as_ref()?), segments.next()?)?;
    for segment in segments {
        let children: &[Component] = match current {
            Found::Component(c) if c.instances.len() == 1 => &c.instances[0].children,
            Found::Component(_) => return None,
            Found::Instance(i) => &i.children,
        };
        current = step(children, segment)?;
    }
    Some(current)
}

fn step<'v>(components: &'v [Component], segment: &str) -> Option<Found<'v>> {
    let (name, id) = match segment.split_once('[') {
        Some((name, rest)) => (name, Some(rest.trim_end_matches(']'))),
        None => (segment, None),
    };
    let c = components.iter().find(|c| c.name == name)?;
    match id {
        None => Some(Found::Component(c)),
        Some(id) => c
            .instances
            .iter()
            .find(|i| i.id.as_deref() == Some(id))
            .map(Found::Instance),
    }
}
