//! The fields an API schema has at a path (src/apischema/fields.rs): what the playground's
//! definition editor completes and shows on hover.

use workload_map::apischema::{draft::pick, fields::fields_at, SchemaSet};

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
          spec:
            type: object
            properties:
              suspend: {type: boolean, description: "Suspend the trainer.\nMore text."}
              extra: {type: object, x-kubernetes-preserve-unknown-fields: true}
              groups:
                type: array
                items:
                  type: object
                  properties:
                    name: {type: string}
                    replicas: {type: integer}
                    template:
                      type: object
                      properties:
                        metadata: {type: object}
                        spec:
                          type: object
                          properties:
                            containers: {type: array, items: {type: object, properties: {name: {type: string}}}}
              roles:
                type: object
                additionalProperties:
                  type: object
                  properties:
                    count: {type: integer}
"#;

fn set() -> SchemaSet {
    let mut set = SchemaSet::new();
    assert!(set.add_text(CRD, "trainer.yaml").is_empty());
    set
}

fn names(set: &SchemaSet, path: &str) -> Vec<(String, String)> {
    let entry = pick(set, None, None, None).expect("one type");
    let at = fields_at(set, entry, path).expect("a simple path");
    at.fields.into_iter().map(|f| (f.name, f.kind)).collect()
}

#[test]
fn the_fields_below_a_path_with_their_types() {
    let set = set();
    let pair = |n: &str, k: &str| (n.to_owned(), k.to_owned());
    assert_eq!(names(&set, "."), vec![pair("spec", "an object")]);
    assert_eq!(
        names(&set, ".spec"),
        vec![
            pair("extra", "an object"),
            pair("groups", "an array"),
            pair("roles", "a map"),
            pair("suspend", "a boolean")
        ]
    );
    // Through a list's items (with jq's `?`), and through a map's values by any key.
    assert_eq!(
        names(&set, ".spec.groups[]?"),
        vec![
            pair("name", "a string"),
            pair("replicas", "an integer"),
            pair("template", "an object")
        ]
    );
    assert_eq!(
        names(&set, r#".spec.roles["any key"]"#),
        vec![pair("count", "an integer")]
    );
    assert_eq!(
        names(&set, ".spec.roles[]"),
        vec![pair("count", "an integer")]
    );
}

#[test]
fn a_path_says_its_type_description_and_whether_it_exists() {
    let set = set();
    let entry = pick(&set, None, None, None).unwrap();
    let suspend = fields_at(&set, entry, ".spec.suspend").unwrap();
    assert!(suspend.found);
    assert_eq!(suspend.kind.as_deref(), Some("a boolean"));
    assert_eq!(suspend.description.as_deref(), Some("Suspend the trainer."));
    let groups = fields_at(&set, entry, ".spec.groups").unwrap();
    assert!(groups.list && !groups.map);
    let missing = fields_at(&set, entry, ".spec.replicatedJobs").unwrap();
    assert!(!missing.found && missing.kind.is_none() && missing.fields.is_empty());
    // Under preserve-unknown-fields anything is there; every object has metadata.
    let open = fields_at(&set, entry, ".spec.extra.anything").unwrap();
    assert!(open.found && open.open);
    assert!(fields_at(&set, entry, ".metadata").unwrap().found);
    assert!(fields_at(&set, entry, ".spec | keys").is_err());
}
