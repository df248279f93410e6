//! Definitions checked against the API schemas of their types (src/apischema).

use crate::common;

use std::io::Read;
use std::path::PathBuf;

use workload_map::apischema::{check_definition, CheckOptions, SchemaSet};

/// `<repo>/../shared/crds` (see [`common::shared_dir`]: under `CI=true` its absence fails).
fn crds_dir() -> Option<PathBuf> {
    common::shared_dir("crds")
}

fn gunzip(path: &std::path::Path) -> String {
    let bytes = std::fs::read(path).expect("read schema");
    let mut text = String::new();
    flate2::read::GzDecoder::new(&bytes[..])
        .read_to_string(&mut text)
        .expect("gunzip schema");
    text
}

/// Every shared schema in one set.
fn shared_schemas(dir: &std::path::Path) -> SchemaSet {
    let mut set = SchemaSet::new();
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("read crds dir")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "gz"))
        .collect();
    files.sort();
    for f in files {
        let label = f.file_name().unwrap().to_string_lossy().into_owned();
        let problems = set.add_text(&gunzip(&f), &label);
        assert!(problems.is_empty(), "{label}: {problems:?}");
    }
    set
}

/// A small CRD written for these tests: two versions, a list of templates, a map of roles.
pub(crate) const CRD: &str = r#"
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: trainers.example.com}
spec:
  group: example.com
  names: {kind: Trainer, plural: trainers}
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          apiVersion: {type: string}
          kind: {type: string}
          metadata: {type: object}
          spec:
            type: object
            properties:
              suspend: {type: boolean}
              mode: {type: string, enum: [Fast, Slow]}
              extra: {type: object, x-kubernetes-preserve-unknown-fields: true}
              size: {x-kubernetes-int-or-string: true}
              groups:
                type: array
                items:
                  type: object
                  properties:
                    name: {type: string}
                    replicas: {type: integer, format: int32}
                    template:
                      type: object
                      properties:
                        metadata: {type: object}
                        spec:
                          type: object
                          properties:
                            containers:
                              type: array
                              items:
                                type: object
                                properties:
                                  name: {type: string}
                                  image: {type: string}
              roles:
                type: object
                additionalProperties:
                  type: object
                  properties:
                    count: {type: integer}
          status:
            type: object
            properties:
              phase: {type: string, enum: [Pending, Running, Done]}
              conditions:
                type: array
                items:
                  type: object
                  properties:
                    type: {type: string}
                    status: {type: string}
                    reason: {type: string}
  - name: v2
    served: true
    storage: false
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              paused: {type: boolean}
              groups:
                type: array
                items:
                  type: object
                  properties:
                    name: {type: string}
                    replicas: {type: integer}
"#;

fn trainer_set() -> SchemaSet {
    let mut set = SchemaSet::new();
    let problems = set.add_text(CRD, "trainer-crd.yaml");
    assert!(problems.is_empty(), "{problems:?}");
    set
}

/// A definition of the test type with `body` as the child component's extra fields.
fn definition(version: &str, root_extra: &str, child: &str) -> String {
    format!(
        r#"apiVersion: run.ai/v1alpha1
kind: Karta
metadata: {{name: trainer}}
spec:
  structureDefinition:
    rootComponent:
      name: trainer
      kind: {{group: example.com, version: {version}, kind: Trainer}}
{root_extra}      statusDefinition:
        phaseDefinition: {{path: .status.phase}}
        statusMappings:
          running: [{{byPhase: Running}}]
    childComponents:
      - name: group
        ownerRef: trainer
{child}"#
    )
}

/// The findings as `code [text at the range] help`.
fn findings(text: &str, set: &SchemaSet, all_versions: bool) -> Vec<String> {
    let report = check_definition(text, set, &CheckOptions { all_versions });
    report
        .diagnostics
        .iter()
        .map(|d| {
            let r = d.range.expect("every finding is located");
            format!(
                "{} [{}] {}{}",
                d.code,
                &text[r.start as usize..r.end as usize],
                d.message,
                d.help
                    .as_deref()
                    .map(|h| format!(" | {h}"))
                    .unwrap_or_default()
            )
        })
        .collect()
}

#[test]
fn a_good_definition_has_no_findings() {
    let text = definition(
        "v1",
        "      suspendDefinition:\n        suspendActions: [{path: .spec.suspend, value: \"true\"}]\n",
        "        instanceIdPath: .spec.groups[]?.name\n        specDefinition:\n          podTemplateSpecPath: .spec.groups[]?.template\n        scaleDefinition:\n          replicasPath: '.spec.groups[]? | (.replicas // 1) * ((.template.metadata.annotations.x // 1) | tonumber)'\n          minReplicasPath: '.spec.size'\n",
    );
    assert_eq!(findings(&text, &trainer_set(), false), Vec::<String>::new());
}

/// A template whose pod spec the CRD leaves open (preserve-unknown-fields) is still a pod
/// template; an object with an open spec but no metadata is not.
#[test]
fn a_template_with_an_open_pod_spec_is_a_template() {
    let pod_spec = "                        spec:
                          type: object
                          properties:
                            containers:
                              type: array
                              items:
                                type: object
                                properties:
                                  name: {type: string}
                                  image: {type: string}
";
    let open = "                        spec: {type: object, x-kubernetes-preserve-unknown-fields: true}\n";
    let crd = CRD.replacen(pod_spec, open, 1);
    assert_ne!(crd, CRD);
    let mut set = SchemaSet::new();
    assert!(set.add_text(&crd, "open.yaml").is_empty());
    let good = definition(
        "v1",
        "",
        "        specDefinition:\n          podTemplateSpecPath: .spec.groups[]?.template\n",
    );
    assert_eq!(findings(&good, &set, false), Vec::<String>::new());
    let bad = definition(
        "v1",
        "",
        "        specDefinition:\n          podTemplateSpecPath: .spec.extra\n",
    );
    assert_eq!(
        findings(&bad, &set, false),
        Vec::<String>::new(),
        "open: anything goes"
    );
    let roles = definition(
        "v1",
        "",
        "        specDefinition:\n          podTemplateSpecPath: .spec.roles.ps\n",
    );
    assert_eq!(
        findings(&roles, &set, false),
        vec!["schema/wrong-kind [.spec.roles.ps] podTemplateSpecPath: .spec.roles[] is an object, not a pod template (metadata and spec)"]
    );
}

/// Every object has apiVersion, kind and metadata, also when its CRD's schema leaves them out;
/// a pod spec whose containers the CRD leaves open is still a pod spec.
#[test]
fn what_every_object_has_and_open_containers_are_no_findings() {
    let crd = CRD
        .replacen("\n          apiVersion: {type: string}\n", "\n", 1)
        .replacen("\n          kind: {type: string}\n", "\n", 1)
        .replacen("\n          metadata: {type: object}\n", "\n", 1)
        .replace(
            "                              items:\n                                type: object\n                                properties:\n                                  name: {type: string}\n                                  image: {type: string}\n",
            "                              items: {type: object, x-kubernetes-preserve-unknown-fields: true}\n",
        );
    let mut set = SchemaSet::new();
    let problems = set.add_text(&crd, "bare.yaml");
    assert!(problems.is_empty(), "{problems:?}");
    let text = definition(
        "v1",
        "",
        "        instanceIdPath: '.metadata.annotations[\"example.com/id\"]'\n        specDefinition:\n          podSpecPath: .spec.groups[]?.template.spec\n",
    );
    assert_eq!(findings(&text, &set, false), Vec::<String>::new());
}

#[test]
fn a_misspelt_field_is_an_error_at_the_field_with_a_did_you_mean() {
    let text = definition(
        "v1",
        "",
        "        specDefinition:\n          podTemplateSpecPath: .spec.group[]?.template\n",
    );
    assert_eq!(
        findings(&text, &trainer_set(), false),
        vec![
            "schema/unknown-field [group] .spec.group: .spec has no field \"group\" | did you mean \"groups\"?"
        ]
    );
}

#[test]
fn a_path_to_the_wrong_kind_of_thing_is_an_error() {
    let set = trainer_set();
    let template = definition(
        "v1",
        "",
        "        specDefinition:\n          podTemplateSpecPath: .spec.groups[]?.template.spec\n",
    );
    assert_eq!(
        findings(&template, &set, false),
        vec!["schema/wrong-kind [.spec.groups[]?.template.spec] podTemplateSpecPath: .spec.groups[].template.spec is a pod spec, not a pod template (metadata and spec) | this is a pod spec: read it with podSpecPath"]
    );
    let replicas = definition(
        "v1",
        "",
        "        scaleDefinition:\n          replicasPath: .spec.groups[]?.name\n",
    );
    assert_eq!(
        findings(&replicas, &set, false),
        vec!["schema/wrong-kind [.spec.groups[]?.name] replicasPath: .spec.groups[].name is a string, not an integer"]
    );
    let iterate = definition("v1", "", "        instanceIdPath: '.spec.mode[] | .name'\n");
    assert_eq!(
        findings(&iterate, &set, false),
        vec!["schema/wrong-kind ['.spec.mode[] | .name'] .spec.mode[] iterates .spec.mode, which is a string: only an array or a map can be iterated"]
    );
    let suspend = definition(
        "v1",
        "      suspendDefinition:\n        suspendActions: [{path: .spec.mode, value: \"true\"}]\n",
        "",
    );
    assert_eq!(
        findings(&suspend, &set, false),
        vec!["schema/wrong-kind [.spec.mode] the action writes a boolean to .spec.mode, which is a string | a suspend or resume action that writes true or false must name a boolean field (such as .spec.suspend)"]
    );
}

#[test]
fn enums_maps_and_open_fields() {
    let set = trainer_set();
    // A map's values are known (`.spec.roles[]`, `.spec.roles.ps`), open fields hold anything.
    let good = definition(
        "v1",
        "",
        "        instanceIdPath: '.spec.roles | keys[]'\n        scaleDefinition:\n          replicasPath: '.spec.roles[] | .count'\n          maxReplicasPath: '.spec.roles.ps.count // .spec.extra.a.b.c'\n",
    );
    assert_eq!(findings(&good, &set, false), Vec::<String>::new());
    let bad = definition(
        "v1",
        "",
        "        scaleDefinition:\n          replicasPath: 'if .spec.mode == \"fast\" then .spec.roles.ps.cuont else 1 end'\n",
    );
    assert_eq!(
        findings(&bad, &set, false),
        vec![
            "schema/not-in-enum [fast] \"fast\" is not one of the values of .spec.mode | did you mean \"Fast\"?",
            "schema/unknown-field [cuont] .spec.roles[].cuont: .spec.roles[] has no field \"cuont\" | did you mean \"count\"?",
        ]
    );
    let phase = definition("v1", "", "").replace("byPhase: Running", "byPhase: Runing");
    assert_eq!(
        findings(&phase, &set, false),
        vec!["schema/not-in-enum [Runing] byPhase \"Runing\" is not one of the values of .status.phase | did you mean \"Running\"?"]
    );
}

#[test]
fn conditions_fields_and_status_expressions_are_checked() {
    let set = trainer_set();
    let text = definition("v1", "", "").replace(
        "        statusMappings:\n          running: [{byPhase: Running}]\n",
        "        conditionsDefinition: {path: .status.conditions, typeFieldName: type, statusFieldName: state}\n        statusMappings:\n          running: [{byPhase: Running}]\n          failed:\n            - byExpression: {expression: 'any(.status.conditions[]; .typ == \"Failed\")', expectedResult: \"true\"}\n",
    );
    let found = findings(&text, &set, false);
    assert_eq!(found.len(), 2, "{found:#?}");
    assert!(
        found[0].starts_with("schema/unknown-field [conditionsDefinition]"),
        "{found:#?}"
    );
    assert!(found[0].contains("statusFieldName: the conditions at .status.conditions have no field \"state\" | did you mean \"status\"?"), "{found:#?}");
    assert_eq!(
        found[1],
        "schema/unknown-field [typ] .status.conditions[].typ: .status.conditions[] has no field \"typ\" | did you mean \"type\"?"
    );
}

#[test]
fn an_expression_too_complex_to_follow_is_a_note_never_an_error() {
    let set = trainer_set();
    let text = definition(
        "v1",
        "",
        "        scaleDefinition:\n          replicasPath: 'def n: .replicaz; [.spec.groups[]? | n] | .[0].whatever // 1'\n          minReplicasPath: 'reduce .spec.groups[]? as $g (0; . + $g.nonsense)'\n",
    );
    let report = check_definition(&text, &set, &CheckOptions::default());
    let codes: Vec<(&str, bool)> = report
        .diagnostics
        .iter()
        .map(|d| (d.code, d.is_error()))
        .collect();
    assert_eq!(
        codes,
        vec![
            ("schema/not-followed", false),
            ("schema/not-followed", false)
        ]
    );
}

#[test]
fn several_versions_say_which_paths_exist_where() {
    let set = trainer_set();
    let text = definition(
        "v1",
        "      suspendDefinition:\n        suspendActions: [{path: .spec.suspend, value: \"true\"}]\n",
        "        instanceIdPath: .spec.groups[]?.name\n        scaleDefinition:\n          replicasPath: .spec.groups[]?.replicas\n",
    );
    let report = check_definition(&text, &set, &CheckOptions { all_versions: true });
    let labels: Vec<&str> = report.checked.iter().map(|c| c.label.as_str()).collect();
    assert_eq!(labels, ["v1", "v2"]);
    let messages: Vec<&str> = report
        .diagnostics
        .iter()
        .map(|d| d.message.as_str())
        .collect();
    assert!(
        messages.contains(&".spec.suspend: .spec has no field \"suspend\" (with v2; not with v1)"),
        "{messages:#?}"
    );
    let presence: Vec<String> = report
        .paths
        .iter()
        .map(|p| format!("{} {:?} {:?}", p.field, p.present, p.missing))
        .collect();
    assert!(
        presence.contains(&".spec.suspend [\"v1\"] [\"v2\"]".to_owned()),
        "{presence:#?}"
    );
    assert!(
        !presence
            .iter()
            .any(|p| p.starts_with(".spec.groups[].name")),
        "{presence:#?}"
    );
}

#[test]
fn openapi_documents_are_read_through_refs() {
    let doc = r##"{"openapi": "3.0.0", "components": {"schemas": {
      "io.k8s.api.apps.v1.Thing": {"type": "object", "x-kubernetes-group-version-kind": [{"group": "apps", "version": "v1", "kind": "Thing"}],
        "properties": {"spec": {"allOf": [{"$ref": "#/components/schemas/io.k8s.api.apps.v1.ThingSpec"}], "default": {}}}},
      "io.k8s.api.apps.v1.ThingSpec": {"type": "object", "properties": {
        "replicas": {"type": "integer"},
        "next": {"allOf": [{"$ref": "#/components/schemas/io.k8s.api.apps.v1.ThingSpec"}]},
        "template": {"allOf": [{"$ref": "#/components/schemas/io.k8s.api.core.v1.PodTemplateSpec"}]}}},
      "io.k8s.api.core.v1.PodTemplateSpec": {"type": "object", "properties": {"spec": {"$ref": "#/components/schemas/io.k8s.api.core.v1.PodSpec"}}},
      "io.k8s.api.core.v1.PodSpec": {"type": "object", "properties": {"containers": {"type": "array", "items": {"type": "object"}}}},
      "io.k8s.api.core.v1.Pod": {"type": "object", "x-kubernetes-group-version-kind": [{"group": "", "version": "v1", "kind": "Pod"}],
        "properties": {"metadata": {"$ref": "#/components/schemas/Meta"}, "spec": {"$ref": "#/components/schemas/io.k8s.api.core.v1.PodSpec"}}},
      "Meta": {"type": "object", "properties": {"labels": {"type": "object", "additionalProperties": {"type": "string"}}}}
    }}}"##;
    let mut set = SchemaSet::new();
    assert!(set.add_text(doc, "apps.json").is_empty());
    let text = r#"apiVersion: run.ai/v1alpha1
kind: Karta
metadata: {name: thing}
spec:
  structureDefinition:
    rootComponent:
      name: thing
      kind: {group: apps, version: v1, kind: Thing}
      specDefinition: {podTemplateSpecPath: .spec.next.next.template}
      scaleDefinition: {replicasPath: .spec.next.replica}
      statusDefinition:
        statusMappings: {running: [{byExpression: {expression: 'true', expectedResult: "true"}}]}
      podSelector:
        componentTypeSelector: {keyPath: '.metadata.label["role"]', value: x}
"#;
    assert_eq!(
        findings(text, &set, false),
        vec![
            "schema/unknown-field [replica] .spec.next.replica: .spec.next has no field \"replica\" | did you mean \"replicas\"?",
            "schema/unknown-field [label] .metadata.label: .metadata has no field \"label\" | did you mean \"labels\"?",
        ]
    );
}

#[test]
fn schemas_that_cannot_be_read_are_diagnostics_never_panics() {
    let texts = [
        "",
        "{",
        "kind: ConfigMap",
        "[1, 2]",
        "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nspec: {names: {kind: X}, versions: [{name: v1}]}",
        "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nspec: {names: {kind: X}, versions: [{name: v1, schema: {openAPIV3Schema: {properties: {spec: 3, status: {items: [], additionalProperties: \"no\"}}}}}]}",
        "{\"components\": {\"schemas\": {\"A\": {\"$ref\": \"#/components/schemas/A\", \"x-kubernetes-group-version-kind\": [{\"group\": \"g\", \"version\": \"v\", \"kind\": \"A\"}]}}}}",
    ];
    for text in texts {
        let mut set = SchemaSet::new();
        let problems = set.add_text(text, "t");
        assert!(
            problems.iter().all(|d| d.code == "schema/invalid"),
            "{text}: {problems:?}"
        );
        // Checking against whatever was read never panics either.
        let def = definition(
            "v",
            "",
            "        scaleDefinition: {replicasPath: .spec.a.b[].c}\n",
        )
        .replace("example.com", "g")
        .replace("kind: Trainer", "kind: A");
        let _ = check_definition(&def, &set, &CheckOptions { all_versions: true });
    }
}

/// `upstream@commit` (and tag) of every shared schema file, from the folder's NOTICE.md table.
fn provenance(dir: &std::path::Path) -> std::collections::BTreeMap<String, String> {
    let notice = std::fs::read_to_string(dir.join("NOTICE.md")).unwrap_or_default();
    let mut out = std::collections::BTreeMap::new();
    for line in notice
        .lines()
        .filter(|l| l.starts_with("| ") && l.contains(".gz"))
    {
        let cells: Vec<&str> = line.split('|').map(str::trim).collect();
        let (Some(file), Some(repo), Some(commit)) = (cells.get(1), cells.get(3), cells.get(5))
        else {
            continue;
        };
        let repo = repo.split_whitespace().next().unwrap_or("");
        let hash: String = commit.chars().take(7).collect();
        let tag = commit
            .split_once('(')
            .map(|(_, t)| t.split_whitespace().next().unwrap_or(""))
            .filter(|t| t.starts_with('v'))
            .map(|t| format!(" ({t})"))
            .unwrap_or_default();
        out.insert((*file).to_owned(), format!("{repo}@{hash}{tag}"));
    }
    out
}

/// Compares `text` with the committed file, or rewrites it under `UPDATE_GENERATED=1`.
fn check_generated(relative: &str, text: &str) {
    let path = common::repo().join(relative);
    if std::env::var_os("UPDATE_GENERATED").is_some() {
        std::fs::write(&path, text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        return;
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        committed == text,
        "{relative} is out of date: run `UPDATE_GENERATED=1 cargo test --test it apischema`"
    );
}

/// 1-based line:column of a byte offset.
fn line_col(text: &str, at: u32) -> String {
    let before = &text[..at as usize];
    let line = before.matches('\n').count() + 1;
    let col = before.len() - before.rfind('\n').map_or(0, |i| i + 1) + 1;
    format!("{line}:{col}")
}

/// Every catalog entry whose type has a schema in `../shared/crds` checks with 0 errors
/// against it (and against the Kubernetes Pod schema for its pod-side paths), and
/// `catalog/api-schemas.json` (which the catalog README lists) records what each was checked
/// against.
#[test]
fn the_catalog_checks_cleanly_against_the_shared_schemas() {
    let Some(dir) = crds_dir() else { return };
    let set = shared_schemas(&dir);
    let upstream = provenance(&dir);
    let mut failures = Vec::new();
    let mut record = serde_json::Map::new();
    let mut checked = 0;
    for entry in workload_map::catalog::entries() {
        let report = check_definition(entry.text, &set, &CheckOptions::default());
        let (group, _) = entry
            .api_version
            .rsplit_once('/')
            .unwrap_or(("", entry.api_version));
        if report.checked.is_empty() {
            // Only a type no shared schema describes may go unchecked.
            assert!(
                set.find(group, entry.kind).is_empty(),
                "{}: the shared schemas describe {} but no version was checked: {:?}",
                entry.name,
                entry.kind,
                report.diagnostics
            );
            continue;
        }
        checked += 1;
        assert!(
            report.pod_schema.is_some(),
            "the core v1 document holds the Pod schema"
        );
        for d in report.diagnostics.iter().filter(|d| d.is_error()) {
            let at = d
                .range
                .map(|r| line_col(entry.text, r.start))
                .unwrap_or_default();
            failures.push(format!(
                "catalog/{}/definition.yaml:{at}: {} {}{}",
                entry.name,
                d.code,
                d.message,
                d.help
                    .as_deref()
                    .map(|h| format!(" ({h})"))
                    .unwrap_or_default()
            ));
        }
        let c = &report.checked[0];
        record.insert(
            entry.name.to_owned(),
            serde_json::json!({
                "schema": c.source.trim_end_matches(".gz"),
                "version": c.version,
                "upstream": upstream.get(&c.source).cloned().unwrap_or_default(),
            }),
        );
        println!("{:<48} {} {}", entry.name, c.version, c.source);
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(checked >= 24, "only {checked} catalog entries were checked");
    let mut text = serde_json::to_string_pretty(&serde_json::Value::Object(record)).unwrap();
    text.push('\n');
    check_generated("catalog/api-schemas.json", &text);
}

/// A typo planted in every field read by five catalog definitions is reported as an error at
/// the typo, with a did-you-mean.
#[test]
fn a_typo_in_any_path_of_five_catalog_definitions_is_reported_where_it_is() {
    let Some(dir) = crds_dir() else { return };
    let set = shared_schemas(&dir);
    let names = [
        "jobset-x-k8s-io-jobset-v1alpha2",
        "kubeflow-org-pytorchjob-v1",
        "ray-io-raycluster-v1",
        "leaderworkerset-x-k8s-io-leaderworkerset-v1",
        "apps-deployment-v1",
    ];
    let mut planted = 0;
    let mut missed = Vec::new();
    for name in names {
        let entry = workload_map::catalog::entries()
            .iter()
            .find(|e| e.name == name)
            .expect("catalog entry");
        let report = check_definition(entry.text, &set, &CheckOptions::default());
        assert!(!report.checked.is_empty(), "{name} was not checked");
        let reads: Vec<_> = report.reads.iter().filter(|r| r.declared).collect();
        assert!(reads.len() >= 5, "{name}: only {} fields read", reads.len());
        for read in reads {
            let (start, end) = (read.range.start as usize, read.range.end as usize);
            let field = &entry.text[start..end];
            // Drop the second character: `replicas` → `rplicas`.
            let mut chars: Vec<char> = field.chars().collect();
            if chars.len() < 2 {
                continue;
            }
            chars.remove(1);
            let typo: String = chars.into_iter().collect();
            let text = format!("{}{typo}{}", &entry.text[..start], &entry.text[end..]);
            planted += 1;
            let found = check_definition(&text, &set, &CheckOptions::default());
            let hit = found.diagnostics.iter().find(|d| {
                d.is_error()
                    && d.code == "schema/unknown-field"
                    && d.range.is_some_and(|r| {
                        r.start as usize == start && r.end as usize == start + typo.len()
                    })
            });
            match hit {
                Some(d)
                    if d.help
                        .as_deref()
                        .is_some_and(|h| h.starts_with("did you mean")) => {}
                other => missed.push(format!(
                    "{name}:{} {} → {typo}: {:?}",
                    line_col(&text, start as u32),
                    read.field,
                    other.map(|d| (&d.message, &d.help))
                )),
            }
        }
    }
    println!("{planted} typos planted in five catalog definitions");
    assert!(planted >= 50, "only {planted} typos planted");
    assert!(missed.is_empty(), "{}", missed.join("\n"));
}

/// Pod-bearing roles with pods, as tests/it/draft.rs counts them.
fn roles(component: &workload_map::view::Component) -> usize {
    let own = if component.has_pod_spec {
        component
            .instances
            .iter()
            .filter(|i| i.replicas.desired > 0)
            .count()
    } else {
        0
    };
    own + component
        .instances
        .first()
        .map_or(0, |i| i.children.iter().map(roles).sum())
}

/// `draft --crd`: for every type of the shared schemas the catalog has an entry for, the draft
/// from the schema alone validates; on the catalog's own test manifests of that type, the
/// table says how often it reads the catalog's GPU total and pod-bearing roles.
#[test]
fn drafts_from_the_shared_schemas_validate_and_mostly_agree_with_the_catalog() {
    use workload_map::apischema::draft::draft_from_schema;
    use workload_map::compile::CompiledDefinition;
    let Some(dir) = crds_dir() else { return };
    let set = shared_schemas(&dir);
    let mut invalid = Vec::new();
    let (mut cases, mut gpus, mut both) = (0, 0, 0);
    println!(
        "{:<48} {:<9} {:>5} {:>5} {:>6} {:>5}",
        "type", "version", "cases", "gpus", "roles", "both"
    );
    // Every CRD version drafts a valid definition.
    let crd_entries: Vec<_> = set
        .entries()
        .iter()
        .filter(|e| e.source.ends_with(".yaml.gz"))
        .collect();
    assert!(
        crd_entries.len() >= 17,
        "{} CRD versions",
        crd_entries.len()
    );
    for entry in &crd_entries {
        let drafted = draft_from_schema(&set, entry, None);
        let compiled = CompiledDefinition::from_text(&drafted.text);
        if !compiled.is_valid() {
            invalid.push(format!(
                "{} {}: {:?}",
                entry.kind,
                entry.version,
                compiled.diagnostics()
            ));
        }
        // And it checks cleanly against the schema it came from.
        let options = CheckOptions::default();
        let errors: Vec<_> = check_definition(&drafted.text, &set, &options)
            .diagnostics
            .into_iter()
            .filter(|d| d.is_error())
            .map(|d| format!("{} {}", d.message, d.help.unwrap_or_default()))
            .collect();
        if !errors.is_empty() {
            invalid.push(format!(
                "{} {} against its schema: {errors:?}",
                entry.kind, entry.version
            ));
        }
    }
    for catalog_entry in workload_map::catalog::entries() {
        let (group, version) = catalog_entry
            .api_version
            .rsplit_once('/')
            .unwrap_or(("", catalog_entry.api_version));
        let Some(entry) = set
            .find(group, catalog_entry.kind)
            .into_iter()
            .find(|e| e.version == version)
        else {
            continue;
        };
        let drafted = draft_from_schema(&set, entry, None);
        let compiled = CompiledDefinition::from_text(&drafted.text);
        if !compiled.is_valid() {
            invalid.push(format!(
                "{}: {:?}\n{}",
                catalog_entry.name,
                compiled.diagnostics(),
                drafted.text
            ));
            continue;
        }
        let catalog = CompiledDefinition::from_text(catalog_entry.text);
        let folder = common::repo()
            .join("catalog")
            .join(catalog_entry.name)
            .join("tests");
        let (mut c, mut g, mut r, mut b) = (0, 0, 0, 0);
        for file in common::yaml_files(&folder) {
            let case = common::read_yaml(&file);
            let object = &case["object"];
            if object.is_null() {
                continue;
            }
            let ours = compiled.resolve(object);
            let theirs = catalog.resolve(object);
            let same_gpus = ours.resources.gpus == theirs.resources.gpus;
            let count = |v: &workload_map::View| v.root.as_ref().map_or(0, roles);
            let same_roles = count(&ours) == count(&theirs);
            c += 1;
            g += usize::from(same_gpus);
            r += usize::from(same_roles);
            b += usize::from(same_gpus && same_roles);
        }
        println!(
            "{:<48} {:<9} {c:>5} {g:>5} {r:>6} {b:>5}",
            catalog_entry.name, entry.version
        );
        cases += c;
        gpus += g;
        both += b;
    }
    println!(
        "{:<48} {:<9} {cases:>5} {gpus:>5} {:>6} {both:>5}",
        "TOTAL", "", ""
    );
    assert!(
        invalid.is_empty(),
        "drafts that do not validate:\n{}",
        invalid.join("\n")
    );
    assert!(cases >= 150, "only {cases} catalog cases");
    // Measured: GPUs right in 147 of 183 cases (80.3%), GPUs and roles in 114.
    assert!(
        gpus * 10 >= cases * 8,
        "GPUs right in {gpus} of {cases} (under 80%)"
    );
}

/// Damaged definitions and schemas never panic the check and stay fast: odd expressions in
/// every path of a catalog definition, and truncated schema texts.
#[test]
fn damaged_definitions_and_schemas_never_panic() {
    let set = trainer_set();
    let long_chain = ".spec".to_owned() + &".groups[]".repeat(2000);
    let deep = "(".repeat(300) + ".spec" + &")".repeat(300);
    let odd = [
        "..",
        ".[",
        "def f: f; f",
        "reduce .spec.groups[] as $g (0; . + $g.replicas)",
        "label $out | .spec | break $out",
        "$__loc__",
        ".spec.groups[] | .[] | .[] | .[]",
        ".spec.groups[].name[]",
        ".spec[.spec.groups[0].name]",
        "[.spec.groups[] | .template][0].spec.containers[] | .name",
        "{a: .spec.groups} | .a[].replicas",
        ".spec.groups as [$a, $b] | $a.name",
        ".spec.groups[-1:] | .[0].template",
        "\"\\(.spec.groups[0].nme)\"",
        "try error(\"x\") catch .spec",
        "if . then .spec elif .status then .status.phase else empty end",
        "getpath([\"spec\"]) | .groups",
        long_chain.as_str(),
        deep.as_str(),
    ];
    let started = std::time::Instant::now();
    let mut found = Vec::new();
    for expression in odd {
        let quoted = serde_json::Value::String(expression.to_owned()).to_string();
        let text = definition(
            "v1",
            "",
            &format!(
                "        instanceIdPath: {quoted}\n        specDefinition:\n          podTemplateSpecPath: {quoted}\n        scaleDefinition:\n          replicasPath: {quoted}\n"
            ),
        )
        .replace("{path: .status.phase}", &format!("{{path: {quoted}}}"));
        let report = check_definition(&text, &set, &CheckOptions { all_versions: true });
        assert_eq!(
            report.checked.len(),
            2,
            "{expression}: the definition was read"
        );
        for d in &report.diagnostics {
            let r = d.range.expect("located");
            assert!(r.end as usize <= text.len(), "{expression}: {d:?}");
            found.push(format!("{expression} → {}", d.code));
        }
    }
    // The damage is seen where it can be: a misspelt field inside an interpolation, a field
    // of an integer, and notes (never errors) for what is not followed.
    let seen = |want: &str| found.iter().any(|f| f == want);
    assert!(
        seen("\"\\(.spec.groups[0].nme)\" → schema/unknown-field"),
        "{found:#?}"
    );
    assert!(seen("def f: f; f → schema/not-followed"), "{found:#?}");
    assert!(
        seen(".spec.groups[].name[] → schema/wrong-kind"),
        "{found:#?}"
    );
    // Truncated schema texts: read what can be read, never panic.
    for cut in (0..CRD.len()).step_by(97) {
        let mut s = SchemaSet::new();
        let _ = s.add_text(&CRD[..cut], "cut");
        let text = definition(
            "v1",
            "",
            "        scaleDefinition: {replicasPath: .spec.groups[].replicas}\n",
        );
        let _ = check_definition(&text, &s, &CheckOptions { all_versions: true });
    }
    assert!(
        started.elapsed() < std::time::Duration::from_secs(60),
        "took {:?}",
        started.elapsed()
    );
}

/// Two releases of one CRD (the same version in two files): a field one of them dropped is
/// reported with where it exists, each schema named by its file.
#[test]
fn two_releases_of_a_crd_say_which_one_lacks_a_field() {
    let mut set = SchemaSet::new();
    assert!(set.add_text(CRD, "release-1.yaml").is_empty());
    let newer = CRD.replacen("              suspend: {type: boolean}\n", "", 1);
    assert!(set.add_text(&newer, "release-2.yaml").is_empty());
    let text = definition(
        "v1",
        "      suspendDefinition:\n        suspendActions: [{path: .spec.suspend, value: \"true\"}]\n",
        "",
    );
    let report = check_definition(&text, &set, &CheckOptions::default());
    let labels: Vec<&str> = report.checked.iter().map(|c| c.label.as_str()).collect();
    assert_eq!(labels, ["v1 (release-1.yaml)", "v1 (release-2.yaml)"]);
    assert_eq!(
        findings(&text, &set, false),
        vec!["schema/unknown-field [suspend] .spec.suspend: .spec has no field \"suspend\" (with v1 (release-2.yaml); not with v1 (release-1.yaml)) | its fields are: extra, groups, mode, roles, size"]
    );
    assert_eq!(report.paths.len(), 1);
    assert_eq!(report.paths[0].present, ["v1 (release-1.yaml)"]);
}
