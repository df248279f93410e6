//! What the JavaScript boundary (crates/wasm) used to decide itself and now asks the core:
//! the one object of a text, which object `options.workload` may pick, plain objects read from
//! the engine's JSON text (a `kind: List` expanded), identities, the schema cache, drafting from
//! a picked schema type, and a definition given as a plain object. The boundary only marshals
//! these results (tests/node checks them through the package). A manifest read once is resolved
//! from the kept reading (`resolve_manifest_ref`) into the view that consuming it gives.

use serde_json::json;
use workload_map::apischema::{draft::draft_picked, SchemaCache, SchemaSet};
use workload_map::compile::CompiledDefinition;
use workload_map::diagnostic::{codes, Source};
use workload_map::object::{
    creation_timestamp, read_json_object, read_json_objects, read_objects, Identity,
    ListItemsNotObjects,
};
use workload_map::view::ResolveOptions;
use workload_map::yaml::MAX_DEPTH;

#[test]
fn the_one_object_of_a_text_or_why_there_is_none() {
    let one = read_objects("apiVersion: v1\nkind: Pod\nmetadata: {name: p}\n").into_single();
    assert_eq!(one.expect("one object")["kind"], "Pod");

    // Nothing: the same "text holds no object" error as resolve gives, at the start.
    for nothing in ["", "# a comment\n", "---\n"] {
        let problems = read_objects(nothing).into_single().expect_err(nothing);
        assert_eq!(problems.len(), 1, "{nothing:?}: {problems:?}");
        assert_eq!(problems[0].code, codes::OBJECT_INVALID);
        assert_eq!(problems[0].message, "the text holds no object");
        assert_eq!(problems[0].source, Source::Object);
        assert_eq!(problems[0].range.map(|r| (r.start, r.end)), Some((0, 0)));
        assert!(problems[0].help.is_some());
    }

    // A syntax error is the reason given, with nothing added.
    let problems = read_objects("a: [").into_single().expect_err("syntax");
    assert_eq!(problems.len(), 1);
    assert_ne!(problems[0].code, codes::OBJECT_INVALID);
}

#[test]
fn options_workload_picks_an_object_that_was_read() {
    let two = read_objects("kind: A\n---\nkind: B\n");
    assert_eq!(two.pick_problem(0), None);
    assert_eq!(two.pick_problem(1), None);
    assert_eq!(
        two.pick_problem(2).as_deref(),
        Some("options.workload is 2, but the input holds 2 objects")
    );
    // With nothing read, the view says so; the index is no misuse.
    assert_eq!(read_objects("").pick_problem(5), None);
}

#[test]
fn a_plain_object_is_read_from_json_text_without_positions() {
    let read = read_json_object(r#"{"kind":"Pod","spec":{"x":1}}"#);
    assert_eq!(read.objects.len(), 1);
    assert!(read.diagnostics.is_empty());
    assert!(
        read.nodes.is_empty(),
        "no text the caller wrote: no document nodes"
    );

    // Deeper than the reader's limit: a diagnostic located by its path only.
    let deep = format!(
        "{}1{}",
        "[".repeat(MAX_DEPTH + 5),
        "]".repeat(MAX_DEPTH + 5)
    );
    let read = read_json_object(&deep);
    assert!(read.objects.is_empty());
    assert_eq!(read.diagnostics.len(), 1);
    assert_eq!(read.diagnostics[0].code, codes::TOO_LARGE);
    assert_eq!(read.diagnostics[0].source, Source::Object);
    assert_eq!(read.diagnostics[0].range, None);
}

#[test]
fn a_plain_list_object_stands_for_its_items() {
    let items = |text: &str| {
        read_json_objects(text).map(|read| {
            read.objects
                .into_iter()
                .map(|(o, _)| o["metadata"]["name"].clone())
                .collect::<Vec<_>>()
        })
    };
    let list = json!({"kind": "List", "items": [{"metadata": {"name": "a"}}, {"metadata": {"name": "b"}}]});
    assert_eq!(items(&list.to_string()), Ok(vec![json!("a"), json!("b")]));
    assert_eq!(items(r#"{"kind":"List"}"#), Ok(vec![]));
    assert_eq!(
        items(r#"{"kind":"List","items":[{"a":1},2]}"#),
        Err(ListItemsNotObjects)
    );
    // Only `kind: List` is expanded here (a plain object of another kind is itself).
    let other = json!({"kind": "PodList", "items": [], "metadata": {"name": "x"}});
    assert_eq!(items(&other.to_string()), Ok(vec![json!("x")]));
}

#[test]
fn identities_are_strings_with_an_optional_namespace() {
    let object = json!({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p", "creationTimestamp": "2026-01-01T00:00:00Z"}});
    let identity = Identity::of(&object);
    assert_eq!(
        (
            identity.api_version,
            identity.kind,
            identity.name,
            identity.namespace
        ),
        ("v1", "Pod", "p", None)
    );
    assert_eq!(creation_timestamp(&object), Some("2026-01-01T00:00:00Z"));
    let odd = json!({"kind": 3, "metadata": {"namespace": "ns"}});
    let identity = Identity::of(&odd);
    assert_eq!(
        (identity.kind, identity.name, identity.namespace),
        ("", "", Some("ns"))
    );
    assert_eq!(
        serde_json::to_value(Identity::of(&object)).unwrap(),
        json!({"apiVersion": "v1", "kind": "Pod", "name": "p", "namespace": null})
    );
}

#[test]
fn the_schema_cache_reads_the_same_texts_once() {
    let texts = vec![("crd".to_owned(), crate::apischema::CRD.to_owned())];
    let mut cache = SchemaCache::default();
    let first = cache.read(&texts);
    assert!(!first.0.entries().is_empty());
    assert!(std::rc::Rc::ptr_eq(&first, &cache.read(&texts)));
    let other = vec![("other".to_owned(), "kind: Nothing\n".to_owned())];
    assert!(!std::rc::Rc::ptr_eq(&first, &cache.read(&other)));
    let (set, problems) = SchemaSet::read_texts(&texts);
    assert_eq!(set.entries().len(), first.0.entries().len());
    assert_eq!(problems.len(), first.1.len());
}

#[test]
fn drafting_from_a_schema_picks_the_type_or_says_why_not() {
    let (set, _) = SchemaSet::read_texts(&[("crd".to_owned(), crate::apischema::CRD.to_owned())]);
    let drafted = draft_picked(&set, None, Some("Trainer"), Some("v1"), None);
    let checked = drafted.drafted.expect("a type was picked");
    assert_eq!(
        (checked.kind.as_str(), checked.version.as_str()),
        ("Trainer", "v1")
    );
    assert!(drafted.text.contains("kind: Karta"), "{}", drafted.text);

    let missing = draft_picked(&set, None, Some("NoSuchKind"), None, None);
    assert!(missing.drafted.is_none());
    assert_eq!(missing.text, "");
    assert_eq!(missing.diagnostics.len(), 1);
    assert_eq!(missing.diagnostics[0].code, codes::SCHEMA_NOT_FOUND);
    assert_eq!(missing.diagnostics[0].source, Source::Schema);
}

#[test]
fn a_definition_given_as_a_plain_object_compiles_from_its_json_text() {
    let text = r#"{"apiVersion":"run.ai/v1alpha1","kind":"Karta","metadata":{"name":"x"}}"#;
    let compiled = CompiledDefinition::from_json_text(text);
    let value: serde_json::Value = serde_json::from_str(text).unwrap();
    assert_eq!(compiled.name(), Some("x"));
    assert_eq!(
        compiled.text(),
        CompiledDefinition::from_json(&value).text()
    );

    // Too deep to read as a value: compiled from the text, whose reading says where.
    let deep = format!(
        r#"{{"apiVersion":"run.ai/v1alpha1","kind":"Karta","spec":{}1{}}}"#,
        "[".repeat(MAX_DEPTH + 5),
        "]".repeat(MAX_DEPTH + 5)
    );
    let compiled = CompiledDefinition::from_json_text(&deep);
    assert!(!compiled.is_valid());
    assert!(compiled
        .diagnostics()
        .iter()
        .any(|d| d.code == codes::TOO_LARGE));
}

#[test]
fn a_kept_reading_resolves_as_the_reading_it_would_consume() {
    let stream = "apiVersion: jobset.x-k8s.io/v1alpha2\nkind: JobSet\nmetadata: {name: a, uid: u-a}\nspec:\n  replicatedJobs:\n  - name: w\n    replicas: x\n    template: {spec: {parallelism: 2, template: {spec: {containers: [{name: m, resources: {limits: {nvidia.com/gpu: 1}}}]}}}}\n---\n- not an object\n---\napiVersion: v1\nkind: Pod\nmetadata:\n  name: a-w-0\n  ownerReferences: [{kind: JobSet, name: a, uid: u-a, controller: true}]\nspec: {containers: [{name: m}]}\n---\napiVersion: batch/v1\nkind: Job\nmetadata: {name: b}\nspec: {parallelism: 3, template: {spec: {containers: [{name: m}]}}}\n";
    let related =
        vec![json!({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "stray"}, "spec": {}})];
    let definitions = ["jobset-x-k8s-io-jobset-v1alpha2", "batch-job-v1"].map(|name| {
        let entry = workload_map::catalog::get(name).expect(name);
        CompiledDefinition::from_text(entry.text)
    });
    for text in [stream, "", "a: [", "- 1\n"] {
        let read = read_objects(text);
        let before = format!("{read:?}");
        for definition in &definitions {
            for given in [None, Some(related.as_slice())] {
                for workload in [None, Some(0), Some(1), Some(2)] {
                    for options in [ResolveOptions::default(), ResolveOptions::LEAN] {
                        let kept = definition.resolve_manifest_ref(&read, given, workload, options);
                        let consumed =
                            definition.resolve_manifest(read.clone(), given, workload, options);
                        assert_eq!(kept, consumed, "{text:?} {workload:?} {given:?}");
                    }
                }
            }
        }
        // Nothing taken from it: the same reading serves the next call.
        assert_eq!(format!("{read:?}"), before);
    }
    // The view points into the text: the workload's diagnostic is located at its replicated job.
    let view = definitions[0].resolve_manifest_ref(
        &read_objects(stream),
        None,
        None,
        ResolveOptions::default(),
    );
    let bad = view
        .diagnostics
        .iter()
        .find(|d| d.code == codes::REPLICAS_NOT_A_NUMBER)
        .expect("replicas: x");
    let range = bad.range.expect("placed in the text");
    assert!(
        stream[range.start as usize..range.end as usize].starts_with("name: w\n    replicas: x")
    );
}

#[test]
fn a_plain_object_measured_past_a_limit_is_read_as_nothing_with_its_problem() {
    // The boundary measures a JavaScript object before serialising it; one past a limit is
    // never serialised, and its reading is the problem alone, unplaced, in the object.
    let problem = workload_map::yaml::too_deep(&[workload_map::path::Step::Key("spec".into())]);
    let read = workload_map::object::unread(problem.clone());
    assert!(read.objects.is_empty());
    assert_eq!(read.diagnostics.len(), 1);
    assert_eq!(read.diagnostics[0].source, Source::Object);
    assert_eq!(read.diagnostics[0].range, None);
    assert_eq!(read.diagnostics[0].path, "spec");
    // Resolved, it is an object that could not be read.
    let definition = CompiledDefinition::from_text(
        workload_map::catalog::get("batch-job-v1")
            .expect("catalog")
            .text,
    );
    let view = definition.resolve_manifest(read, None, None, ResolveOptions::default());
    assert_eq!(view.phases, [workload_map::definition::Phase::Undefined]);
    assert!(view.root.is_none());
    // A definition given as such an object compiles nothing and says why.
    let compiled = CompiledDefinition::unread(workload_map::yaml::too_many_values());
    assert_eq!(compiled.text(), "");
    assert_eq!(
        compiled
            .diagnostics()
            .iter()
            .map(|d| d.code)
            .collect::<Vec<_>>(),
        [codes::TOO_LARGE]
    );
}

#[test]
fn an_object_of_an_array_that_could_not_be_read_keeps_its_place_and_is_read_as_nothing() {
    // The boundary leaves `null` where an object of an array could not be read, so that every
    // other object keeps the index it was given at.
    let jobset = json!({"apiVersion": "jobset.x-k8s.io/v1alpha2", "kind": "JobSet",
        "metadata": {"name": "a", "uid": "u-a"}, "spec": {"replicatedJobs": []}});
    let pod = json!({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "a-0",
        "ownerReferences": [{"kind": "JobSet", "name": "a", "uid": "u-a", "controller": true}]}});
    let objects = [
        serde_json::Value::Null,
        jobset,
        serde_json::Value::Null,
        pod,
    ];
    let reading = workload_map::manifest::read(&objects, &[serde_json::Value::Null]);
    assert_eq!(
        reading
            .workloads
            .iter()
            .map(|w| (w.index, w.related.clone()))
            .collect::<Vec<_>>(),
        [(1, vec![3])]
    );
    assert!(reading.unowned.is_empty(), "{:?}", reading.unowned);
    let batch = workload_map::batch::resolve_all(&objects, None);
    assert_eq!(
        batch.workloads.iter().map(|w| w.index).collect::<Vec<_>>(),
        [1]
    );
    assert!(batch.workloads[0].view.is_some());
    assert!(batch.unowned.is_empty());
}
