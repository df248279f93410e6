//! Writing YAML: the commented definition text of a [`Plan`].

use serde_json::Value;

use super::jq::{below, is_identifier, jq_path, json_string};
use super::shape::component_name;
use super::*;

/// A YAML scalar: plain when safe, else single-quoted.
pub(super) fn scalar(s: &str) -> String {
    let plain = !s.is_empty()
        && s.chars()
            .next()
            .is_some_and(|c| c.is_ascii_alphabetic() || c == '.' || c == '_')
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-' | '/'))
        && !matches!(
            s.to_ascii_lowercase().as_str(),
            "true" | "false" | "null" | "yes" | "no" | "on" | "off" | "y" | "n"
        );
    if plain {
        s.to_owned()
    } else {
        format!("'{}'", s.replace('\'', "''"))
    }
}

pub(super) struct Writer {
    text: String,
}

impl Writer {
    pub(super) fn line(&mut self, indent: usize, s: &str) {
        for _ in 0..indent {
            self.text.push_str("  ");
        }
        self.text.push_str(s);
        self.text.push('\n');
    }

    pub(super) fn comment(&mut self, indent: usize, s: &str) {
        for line in s.lines() {
            self.line(indent, &format!("# {line}"));
        }
    }
}

pub(super) fn short(value: &Value) -> String {
    let text = value.to_string();
    if text.chars().count() > 40 {
        let cut: String = text.chars().take(37).collect();
        format!("{cut}...")
    } else {
        text
    }
}

pub(super) fn shown_path(segs: &[Step]) -> String {
    let mut out = String::new();
    for seg in segs {
        match seg {
            Step::Key(k) if is_identifier(k) => {
                out.push('.');
                out.push_str(k);
            }
            Step::Key(k) => out.push_str(&format!("[{}]", json_string(k))),
            Step::Items | Step::Each => out.push_str("[]"),
            Step::Values => out.push_str("{}"),
            Step::Index(i) => out.push_str(&format!("[{i}]")),
        }
    }
    if out.is_empty() {
        ".".to_owned()
    } else {
        out
    }
}

pub(super) fn render(plan: &Plan) -> String {
    let mut w = Writer {
        text: String::new(),
    };
    let type_name = if plan.kind.is_empty() {
        "an object without apiVersion/kind".to_owned()
    } else {
        format!("{} {}", plan.api_version, plan.kind)
    };
    w.comment(
        0,
        &format!("Drafted by workload-map from one {type_name} object."),
    );
    w.comment(
        0,
        "Every guess says what it saw. Check each against the type's documentation, then\nresolve more objects of this type (other states, other sizes) to test it.",
    );
    w.line(0, "apiVersion: run.ai/v1alpha1");
    w.line(0, "kind: Karta");
    w.line(0, "metadata:");
    let name = if plan.kind.is_empty() {
        "drafted".to_owned()
    } else {
        let group = if plan.group.is_empty() {
            "core".to_owned()
        } else {
            plan.group.replace('.', "-")
        };
        component_name(&format!(
            "{group}-{}-{}",
            plan.kind.to_ascii_lowercase(),
            plan.version
        ))
    };
    w.line(1, &format!("name: {}", scalar(&name)));
    w.line(0, "spec:");
    w.line(1, "structureDefinition:");
    w.line(2, "rootComponent:");
    w.line(3, &format!("name: {}", scalar(&plan.root)));
    w.line(
        3,
        &format!(
            "kind: {{group: {}, version: {}, kind: {}}}",
            json_string(&plan.group),
            json_string(&plan.version),
            json_string(&plan.kind)
        ),
    );
    if let Some(component) = &plan.root_pods {
        write_pods(&mut w, 3, component);
    }
    write_suspend(&mut w, plan);
    write_status(&mut w, plan);
    if !plan.children.is_empty() {
        w.line(2, "childComponents:");
        for child in &plan.children {
            w.line(3, &format!("- name: {}", scalar(&child.name)));
            w.comment(
                4,
                "kind: the object the operator creates for this role is not in the object; add it when known",
            );
            w.line(4, &format!("ownerRef: {}", scalar(&plan.root)));
            write_instances(&mut w, 4, child, &plan.group);
            write_pods(&mut w, 4, child);
        }
    }
    w.text
}

pub(super) fn write_instances(w: &mut Writer, indent: usize, c: &ComponentPlan, group: &str) {
    let (Some((prefix, ids)), Some(id_path)) = (&c.each, c.id_path()) else {
        return;
    };
    let list = shown_path(&prefix[..prefix.len() - 1]);
    let seen = match ids {
        Ids::Field(field, values) => format!(
            "saw {list}: a list of {} with `{field}` ({}), one instance each",
            values.len(),
            values.join(", ")
        ),
        Ids::Key(keys) => format!(
            "saw {list}: a map of {} role specs ({}), one instance per key",
            keys.len(),
            keys.join(", ")
        ),
        Ids::Index(n) => format!(
            "saw {list}: a list of {n} with no name field, so instances are numbered by position"
        ),
    };
    w.comment(indent, &seen);
    w.line(indent, &format!("instanceIdPath: {}", scalar(&id_path)));
    w.comment(
        indent,
        "GUESS: the pod label that names the instance; replace with the label your operator sets",
    );
    let label = if group.is_empty() {
        c.name.clone()
    } else {
        format!("{group}/{}", c.name)
    };
    w.line(indent, "podSelector:");
    w.line(indent + 1, "componentInstanceSelector:");
    w.line(
        indent + 2,
        &format!(
            "idPath: {}",
            scalar(&format!(".metadata.labels[{}]", json_string(&label)))
        ),
    );
}

pub(super) fn write_pods(w: &mut Writer, indent: usize, c: &ComponentPlan) {
    let at = shown_path(&c.location.path);
    let spec_path = c.spec_path();
    w.line(indent, "specDefinition:");
    match c.location.kind {
        PodKind::Template => {
            w.comment(
                indent + 1,
                &format!("saw a pod template at {at} (metadata and spec.containers)"),
            );
            w.line(
                indent + 1,
                &format!("podTemplateSpecPath: {}", scalar(&spec_path)),
            );
        }
        PodKind::PodSpec => {
            w.comment(indent + 1, &format!("saw a pod spec at {at} (containers)"));
            w.line(indent + 1, &format!("podSpecPath: {}", scalar(&spec_path)));
        }
        PodKind::Resources => {
            let field = c.location.field.as_deref().unwrap_or("resources");
            w.comment(
                indent + 1,
                &format!(
                    "saw only resources at {at}.{field}: the operator builds the pod; the resources are what counts"
                ),
            );
            w.line(indent + 1, "fragmentedPodSpecDefinition:");
            w.line(
                indent + 2,
                &format!("resourcesPath: {}", scalar(&spec_path)),
            );
        }
        PodKind::Container => {
            w.comment(
                indent + 1,
                &format!("saw one container (image and resources) at {at}: the operator builds the pod around it"),
            );
            w.line(indent + 1, "fragmentedPodSpecDefinition:");
            w.line(
                indent + 2,
                &format!("containerPath: {}", scalar(&spec_path)),
            );
        }
    }
    let replicas = c.replicas_path();
    let min = c.bound_path(&c.scale.min);
    let max = c.bound_path(&c.scale.max);
    if replicas.is_none() && min.is_none() && max.is_none() {
        w.comment(
            indent,
            "no replica field (replicas, parallelism, size, numWorkers, ...) next to the pods: one pod",
        );
        return;
    }
    w.line(indent, "scaleDefinition:");
    if let Some(path) = replicas {
        let seen: Vec<String> = c
            .scale
            .factors
            .iter()
            .map(|f| {
                let field = below(&jq_path(&f.node), &[f.field.to_owned()]);
                let mut s = match &c.each {
                    Some(_) => format!("{field} in the entries (e.g. {})", short(&f.value)),
                    None => format!("{field} = {}", short(&f.value)),
                };
                if f.with_completions {
                    s.push_str(" with completions (pods at once: the smaller, both default 1)");
                }
                s
            })
            .collect();
        let how = if seen.len() > 1 {
            "; the outer count multiplies the pods of each object"
        } else {
            ""
        };
        w.comment(
            indent + 1,
            &format!("saw {}{how}; absent means 1", seen.join(" and ")),
        );
        w.line(indent + 1, &format!("replicasPath: {}", scalar(&path)));
    }
    for (label, path, bound) in [
        ("minReplicasPath", min, &c.scale.min),
        ("maxReplicasPath", max, &c.scale.max),
    ] {
        if let (Some(path), Some((node, field, value))) = (path, bound) {
            w.comment(
                indent + 1,
                &format!(
                    "saw {} = {}",
                    below(&jq_path(node), std::slice::from_ref(field)),
                    short(value)
                ),
            );
            w.line(indent + 1, &format!("{label}: {}", scalar(&path)));
        }
    }
}

pub(super) fn write_suspend(w: &mut Writer, plan: &Plan) {
    let Some((path, value)) = &plan.suspend else {
        return;
    };
    let path = jq_path(path);
    w.comment(
        3,
        &format!("saw {path} = {value}: suspending and resuming set it"),
    );
    w.line(3, "suspendDefinition:");
    w.line(
        4,
        &format!("suspendActions: [{{path: {path}, value: \"true\"}}]"),
    );
    w.line(
        4,
        &format!("resumeActions: [{{path: {path}, value: \"false\"}}]"),
    );
}

/// Phases and the status values that commonly mean them.
pub(super) const PHASE_WORDS: &[(&str, &[&str])] = &[
    (
        "initializing",
        &[
            "Pending",
            "Initializing",
            "Creating",
            "Starting",
            "Provisioning",
            "Queued",
            "Submitted",
        ],
    ),
    (
        "running",
        &["Running", "Ready", "Active", "Healthy", "Available"],
    ),
    (
        "completed",
        &["Succeeded", "Completed", "Complete", "Finished"],
    ),
    ("failed", &["Failed", "Error", "Errored"]),
    ("degraded", &["Degraded", "Unhealthy", "Restarting"]),
    ("suspended", &["Suspended", "Stopped", "Paused"]),
    ("suspending", &["Suspending", "Stopping"]),
    ("resuming", &["Resuming"]),
];

/// Condition types and the phase a `True` one means.
pub(super) const CONDITION_PHASES: &[(&str, &str)] = &[
    ("Ready", "running"),
    ("Running", "running"),
    ("Available", "running"),
    ("Succeeded", "completed"),
    ("Complete", "completed"),
    ("Completed", "completed"),
    ("Failed", "failed"),
    ("Degraded", "degraded"),
    ("Restarting", "degraded"),
    ("Suspended", "suspended"),
];

/// The value written in the style the object uses (`ready`, `READY`, `Ready`).
pub(super) fn styled(word: &str, sample: &str) -> String {
    let letters: Vec<char> = sample.chars().filter(char::is_ascii_alphabetic).collect();
    if !letters.is_empty() && letters.iter().all(char::is_ascii_lowercase) {
        word.to_ascii_lowercase()
    } else if letters.len() > 1 && letters.iter().all(char::is_ascii_uppercase) {
        word.to_ascii_uppercase()
    } else {
        word.to_owned()
    }
}

pub(super) fn write_status(w: &mut Writer, plan: &Plan) {
    let status = &plan.status;
    let suspend = plan.suspend.as_ref().map(|(p, _)| jq_path(p));
    let not_suspended = suspend
        .as_ref()
        .map(|p| format!(" and ({p} // false) != true"))
        .unwrap_or_default();
    w.line(3, "statusDefinition:");
    if let Some((path, value)) = &status.phase {
        let path = jq_path(path);
        w.comment(4, &format!("saw {path} = {}", json_string(value)));
        w.line(4, &format!("phaseDefinition: {{path: {}}}", scalar(&path)));
        write_conditions_definition(w, status, plan.condition_fields.as_deref());
        w.comment(
            4,
            "the values below are common ones written in the style seen; keep those this type uses",
        );
        w.line(4, "statusMappings:");
        let mut placed = false;
        let mut used: Vec<String> = Vec::new();
        for (phase, words) in PHASE_WORDS {
            // With the field's values known (an API schema's enum), only those are written.
            let values: Vec<String> = words
                .iter()
                .map(|word| styled(word, value))
                .filter_map(|v| match &plan.phase_values {
                    None => Some(v),
                    Some(allowed) => allowed.iter().find(|a| a.eq_ignore_ascii_case(&v)).cloned(),
                })
                .collect();
            if values.is_empty() && *phase != "initializing" {
                continue;
            }
            w.line(5, &format!("{phase}:"));
            if *phase == "initializing" {
                w.comment(6, "GUESS: no phase yet means the object is being set up");
                write_expression(w, 6, &format!("(({path} // \"\") == \"\"){not_suspended}"));
            }
            for v in values {
                if v.eq_ignore_ascii_case(value) {
                    placed = true;
                    w.comment(6, &format!("saw {}", json_string(value)));
                }
                w.line(6, &format!("- byPhase: {}", json_string(&v)));
                used.push(v);
            }
        }
        if let Some(allowed) = &plan.phase_values {
            let rest: Vec<String> = allowed
                .iter()
                .filter(|a| !used.contains(a))
                .map(|a| json_string(a))
                .collect();
            if !rest.is_empty() {
                w.comment(
                    4,
                    &format!(
                        "the field also takes {}: add each under the phase it means",
                        rest.join(", ")
                    ),
                );
            }
        }
        if !placed && !value.is_empty() {
            w.comment(
                4,
                &format!(
                    "saw {} but it is none of the common values: add it under the phase it means",
                    json_string(value)
                ),
            );
        }
        return;
    }
    let seen: Vec<&(String, String)> = status
        .conditions
        .as_ref()
        .map(|c| c.types.iter().collect())
        .unwrap_or_default();
    if status.conditions.is_some() {
        let listed: Vec<String> = seen.iter().map(|(t, s)| format!("{t}={s}")).collect();
        w.comment(4, &format!("saw .status.conditions: {}", listed.join(", ")));
    } else if status.absent {
        w.comment(
            4,
            "the object has no status yet: this follows the Kubernetes convention (.status.conditions);\ndraft again from an object that has one to check it",
        );
    } else {
        w.comment(
            4,
            "saw a status without a phase or conditions: this follows the Kubernetes convention (.status.conditions)",
        );
    }
    let conditions = StatusPlan {
        phase: None,
        conditions: Some(ConditionsSeen { types: Vec::new() }),
        activity: Vec::new(),
        absent: false,
    };
    let active = (!status.activity.is_empty()).then(|| {
        let tests: Vec<&str> = status.activity.iter().map(|(t, _)| t.as_str()).collect();
        tests.join(" or ")
    });
    write_conditions_definition(w, &conditions, plan.condition_fields.as_deref());
    w.line(4, "statusMappings:");
    let decisive: Vec<String> = CONDITION_PHASES
        .iter()
        .map(|(t, _)| format!(".type == {}", json_string(t)))
        .collect();
    let no_true = |types: &str| {
        format!(
            "([(.status.conditions // [])[] | select(.status == \"True\" and ({types}))] | length) == 0"
        )
    };
    for (phase, _) in PHASE_WORDS {
        let types: Vec<&str> = CONDITION_PHASES
            .iter()
            .filter(|(_, p)| p == phase)
            .map(|(t, _)| *t)
            .collect();
        let expression = match *phase {
            "initializing" => Some((
                "GUESS: no condition says running, done, failed or suspended yet (and nothing is active)",
                match &active {
                    Some(a) => format!("{} and (({a}) | not){not_suspended}", no_true(&decisive.join(" or "))),
                    None => format!("{}{not_suspended}", no_true(&decisive.join(" or "))),
                },
            )),
            "running" => active.as_ref().map(|a| {
                (
                    "GUESS: pods or jobs are active and nothing has finished or failed",
                    format!(
                        "({a}) and {}",
                        no_true(".type == \"Succeeded\" or .type == \"Complete\" or .type == \"Completed\" or .type == \"Failed\" or .type == \"Suspended\"")
                    ),
                )
            }),
            "suspending" => suspend.as_ref().map(|p| {
                (
                    "GUESS: asked to suspend, not suspended yet",
                    format!("{p} == true and {}", no_true(".type == \"Suspended\"")),
                )
            }),
            "resuming" => suspend.as_ref().map(|p| {
                (
                    "GUESS: asked to resume while still suspended",
                    format!(
                        "({p} // false) != true and ({} | not)",
                        no_true(".type == \"Suspended\"")
                    ),
                )
            }),
            _ => None,
        };
        if types.is_empty() && expression.is_none() {
            continue;
        }
        w.line(5, &format!("{phase}:"));
        if let Some((why, expression)) = expression {
            w.comment(6, why);
            if *phase == "running" {
                for (_, seen) in &status.activity {
                    w.comment(6, &format!("saw {seen}"));
                }
            }
            write_expression(w, 6, &expression);
        }
        for t in types {
            match seen.iter().find(|(s, _)| s == t) {
                Some((_, s)) => w.comment(6, &format!("saw condition {t} (status {s})")),
                None => w.comment(
                    6,
                    &format!("{t}=True is a common convention; not seen in this object"),
                ),
            }
            w.line(
                6,
                &format!("- byConditions: [{{type: {t}, status: \"True\"}}]"),
            );
        }
    }
}

/// The conditions' field names: the conventional ones, less those an API schema says a
/// condition does not have (`fields`, when known: a draft never names a field the type lacks).
pub(super) fn write_conditions_definition(
    w: &mut Writer,
    status: &StatusPlan,
    fields: Option<&[String]>,
) {
    if status.conditions.is_none() {
        return;
    }
    let has = |field: &str| fields.is_none_or(|known| known.iter().any(|f| f == field));
    w.line(4, "conditionsDefinition:");
    w.line(5, "path: .status.conditions");
    w.line(5, "typeFieldName: type");
    w.line(5, "statusFieldName: status");
    if has("message") {
        w.line(5, "messageFieldName: message");
    }
    if has("reason") {
        w.line(5, "reasonFieldName: reason");
    }
}

pub(super) fn write_expression(w: &mut Writer, indent: usize, expression: &str) {
    w.line(indent, "- byExpression:");
    w.line(indent + 2, &format!("expression: {}", scalar(expression)));
    w.line(indent + 2, "expectedResult: \"true\"");
}
