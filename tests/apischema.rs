//! Definitions checked against the API schemas of their types (src/apischema).

mod common;

use std::io::Read;
use std::path::PathBuf;

use workload_map::apischema::{check_definition, CheckOptions, SchemaSet};

/// `<repo>/../shared/crds`, or `None` (after saying so) when it is absent; under `CI=true`
/// its absence fails the test.
fn crds_dir() -> Option<PathBuf> {
    let dir = common::repo().join("..").join("shared").join("crds");
    if dir.is_dir() {
        return Some(dir);
    }
    assert!(
        std::env::var("CI").as_deref() != Ok("true"),
        "the shared schemas are missing at {} (CI=true)",
        dir.display()
    );
    println!("shared schemas not found at {}: skipping", dir.display());
    None
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
const CRD: &str = r#"
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
        messages.contains(&".spec.suspend: .spec has no field \"suspend\" (in v2; not in v1)"),
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

#[test]
fn explore() {
    let Some(dir) = crds_dir() else { return };
    let t = std::time::Instant::now();
    let set = shared_schemas(&dir);
    println!("read in {:?}", t.elapsed());
    for dir in std::fs::read_dir(common::repo().join("catalog")).unwrap() {
        let p = dir.unwrap().path().join("definition.yaml");
        if !p.exists() {
            continue;
        }
        let text = std::fs::read_to_string(&p).unwrap();
        let r = check_definition(&text, &set, &CheckOptions::default());
        println!(
            "== {} {:?}",
            p.display(),
            r.checked
                .iter()
                .map(|c| c.label.clone())
                .collect::<Vec<_>>()
        );
        for d in &r.diagnostics {
            println!(
                "  {:?} {} {} [{}] {:?}",
                d.severity,
                d.code,
                d.message,
                &text[d.range.unwrap().start as usize..d.range.unwrap().end as usize],
                d.help
            );
        }
    }
}
