//! Structural validation of a definition: upstream's rules with upstream's messages, then
//! warnings for what upstream accepts but never works.
//!
//! Upstream's short-circuits are kept, because they decide which messages a user sees:
//! duplicate component names stop everything else, and any structure error skips the cycle
//! check. Expression rules are not checked here (see [`crate::expr`]).

use std::collections::{HashMap, HashSet};

use crate::definition::{
    ComponentDefinition, ComponentTypeSelector, Definition, Location, Spanned,
};
use crate::diagnostic::{codes, Diagnostic};

/// Kinds whose root GVK may have an empty group.
const KINDS_WITHOUT_GROUP: [&str; 1] = ["Pod"];

/// Validates a definition read by [`crate::definition::read_definition`]. Diagnostics come in
/// document order.
pub fn validate(def: &Definition) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let Some(structure) = def.structure.as_ref() else {
        return out;
    };

    // Children first, then the root: the later duplicate is the one reported, as upstream.
    let ordered: Vec<&ComponentDefinition> = structure
        .child_components
        .iter()
        .chain(structure.root_component.as_ref())
        .collect();
    let mut by_name: HashMap<&str, &ComponentDefinition> = HashMap::new();
    for c in &ordered {
        let name = c.name_str();
        if by_name.insert(name, c).is_some() {
            let d = Diagnostic::error(
                codes::DUPLICATE_COMPONENT,
                format!("component name {name} is not unique"),
            )
            .with_help("component names must be unique within a definition");
            out.push(match &c.name {
                Some(n) => spanned(d, n),
                None => at(d, &c.location),
            });
        }
    }
    if !out.is_empty() {
        return sorted(out);
    }

    let mut structure_errors = Vec::new();
    if let Some(root) = structure.root_component.as_ref() {
        root_rules(root, &mut structure_errors);
    }
    for child in &structure.child_components {
        match child.owner_ref.as_ref().filter(|o| !o.value.is_empty()) {
            None => structure_errors.push(at(
                Diagnostic::error(
                    codes::CHILD_WITHOUT_OWNER,
                    format!("child component '{}' has no owner ref", child.name_str()),
                )
                .with_help("set ownerRef to the name of the parent component"),
                &child.location,
            )),
            Some(owner) if !by_name.contains_key(owner.value.as_str()) => {
                let mut d = Diagnostic::error(
                    codes::UNKNOWN_OWNER,
                    format!(
                        "child component '{}' has owner ref to non-existing component '{}'",
                        child.name_str(),
                        owner.value
                    ),
                );
                d = spanned(d, owner);
                if let Some(close) = closest_name(&owner.value, by_name.keys().copied()) {
                    d = d.with_help(format!("did you mean '{close}'?"));
                }
                structure_errors.push(d);
            }
            Some(_) => {}
        }
        component_rules(child, &mut structure_errors);
    }
    if structure_errors.is_empty() {
        if let Some(d) = ownership_cycle(&structure.child_components, &by_name) {
            structure_errors.push(d);
        }
    }
    out.append(&mut structure_errors);

    gang_rules(def, &by_name, &mut out);
    empty_expressions(def, &mut out);
    warnings(def, &mut out);
    writable_paths(def, &mut out);
    sorted(out)
}

fn sorted(mut diags: Vec<Diagnostic>) -> Vec<Diagnostic> {
    diags.sort_by_key(|d| d.range.map_or(u32::MAX, |r| r.start));
    diags
}

fn at(d: Diagnostic, loc: &Location) -> Diagnostic {
    d.with_range(loc.range).with_path(loc.path.clone())
}

fn spanned(d: Diagnostic, s: &Spanned<String>) -> Diagnostic {
    d.with_range(s.range).with_path(s.path.clone())
}

fn field(s: &Option<Spanned<String>>) -> &str {
    s.as_ref().map_or("", |s| s.value.as_str())
}

fn root_rules(root: &ComponentDefinition, out: &mut Vec<Diagnostic>) {
    let kind_complete = root.kind.as_ref().is_some_and(|k| {
        !field(&k.version).is_empty()
            && !field(&k.kind).is_empty()
            && (!field(&k.group).is_empty() || KINDS_WITHOUT_GROUP.contains(&field(&k.kind)))
    });
    if !kind_complete {
        let loc = root.kind.as_ref().map_or(&root.location, |k| &k.location);
        out.push(at(
            Diagnostic::error(
                codes::ROOT_KIND_INCOMPLETE,
                "root component must have full kind (group, version, kind)",
            )
            .with_help("only `Pod` may have an empty group; e.g. `kind: {group: batch, version: v1, kind: Job}`"),
            loc,
        ));
    }
    if let Some(owner) = &root.owner_ref {
        out.push(spanned(
            Diagnostic::error(
                codes::ROOT_OWNER_REF,
                "root component cannot have owner ref",
            )
            .with_help("remove ownerRef from the root component"),
            owner,
        ));
    }
    if root.status_definition.is_none() {
        out.push(at(
            Diagnostic::error(
                codes::ROOT_WITHOUT_STATUS,
                "root component must have status definition",
            )
            .with_help("add a statusDefinition with statusMappings to the root component"),
            &root.location,
        ));
    }
    component_rules(root, out);
}

fn component_rules(c: &ComponentDefinition, out: &mut Vec<Diagnostic>) {
    let name = c.name_str();
    if name.is_empty() {
        out.push(at(
            Diagnostic::error(codes::EMPTY_COMPONENT_NAME, "component name is empty"),
            &c.location,
        ));
    }
    if let Some(spec) = &c.spec_definition {
        let count = usize::from(spec.pod_template_spec_path.is_some())
            + usize::from(spec.pod_spec_path.is_some())
            + usize::from(spec.fragmented.is_some());
        if count > 1 {
            out.push(at(
                Diagnostic::error(
                    codes::MULTIPLE_POD_SPECS,
                    format!("component '{name}' has multiple pod spec definitions"),
                )
                .with_help(
                    "keep one of podTemplateSpecPath, podSpecPath and fragmentedPodSpecDefinition",
                ),
                &spec.location,
            ));
        }
    }
    let instance_selector = c
        .pod_selector
        .as_ref()
        .and_then(|p| p.component_instance_selector.as_ref());
    match (&c.instance_id_path, instance_selector) {
        (Some(path), None) => out.push(spanned(
            Diagnostic::error(
                codes::INSTANCE_ID_WITHOUT_SELECTOR,
                format!("component '{name}' has instance id path but no pod component instance selector"),
            )
            .with_help("add podSelector.componentInstanceSelector.idPath to tell pods of each instance apart"),
            path,
        )),
        (None, Some(sel)) => out.push(at(
            Diagnostic::error(
                codes::SELECTOR_WITHOUT_INSTANCE_ID,
                format!("component '{name}' has pod component instance selector but no instance id path"),
            )
            .with_help("add instanceIdPath, or remove componentInstanceSelector"),
            &sel.location,
        )),
        _ => {}
    }
    if let Some(sel) = c
        .pod_selector
        .as_ref()
        .and_then(|p| p.component_type_selector.as_ref())
    {
        type_selector_rules(name, sel, out);
    }
}

fn type_selector_rules(name: &str, sel: &ComponentTypeSelector, out: &mut Vec<Diagnostic>) {
    if sel.key_path.is_none() && sel.match_labels.is_none() {
        out.push(at(
            Diagnostic::error(
                codes::EMPTY_TYPE_SELECTOR,
                format!(
                    "component '{name}' componentTypeSelector has neither keyPath nor matchLabels"
                ),
            )
            .with_help("set keyPath (with an optional value) or matchLabels"),
            &sel.location,
        ));
    }
    if let (Some(value), None) = (&sel.value, &sel.key_path) {
        out.push(spanned(
            Diagnostic::error(
                codes::VALUE_WITHOUT_KEY_PATH,
                format!("component '{name}' componentTypeSelector has value without keyPath"),
            )
            .with_help("value is compared with what keyPath yields: add keyPath"),
            value,
        ));
    }
    let Some(labels) = &sel.match_labels else {
        return;
    };
    if labels.is_empty() {
        out.push(at(
            Diagnostic::error(
                codes::EMPTY_MATCH_LABELS,
                format!("component '{name}' componentTypeSelector has empty matchLabels"),
            )
            .with_help("list at least one label, or remove matchLabels"),
            &sel.location,
        ));
    }
    for (key, value) in labels {
        for problem in label_key_problems(&key.value) {
            out.push(spanned(
                Diagnostic::error(
                    codes::INVALID_LABEL,
                    format!("{}: Invalid value: {:?}: {problem}", key.path, key.value),
                ),
                key,
            ));
        }
        for problem in label_value_problems(&value.value) {
            out.push(spanned(
                Diagnostic::error(
                    codes::INVALID_LABEL,
                    format!(
                        "{}: Invalid value: {:?}: {problem}",
                        value.path, value.value
                    ),
                ),
                value,
            ));
        }
    }
}

const QUALIFIED_NAME_FMT: &str = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]";
const DNS1123_SUBDOMAIN_FMT: &str =
    "[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*";

fn is_qualified_name_part(s: &str) -> bool {
    let b = s.as_bytes();
    let edge = |c: &u8| c.is_ascii_alphanumeric();
    b.first().is_some_and(edge)
        && b.last().is_some_and(edge)
        && b.iter()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, b'-' | b'_' | b'.'))
}

fn is_dns1123_subdomain(s: &str) -> bool {
    s.split('.').all(|label| {
        let b = label.as_bytes();
        let edge = |c: &u8| c.is_ascii_lowercase() || c.is_ascii_digit();
        b.first().is_some_and(edge)
            && b.last().is_some_and(edge)
            && b.iter()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || *c == b'-')
    })
}

/// Kubernetes' `IsQualifiedName` messages for a label key.
fn label_key_problems(key: &str) -> Vec<String> {
    let mut errs = Vec::new();
    let parts: Vec<&str> = key.split('/').collect();
    let name = match parts.as_slice() {
        [name] => *name,
        [prefix, name] => {
            if prefix.is_empty() {
                errs.push("prefix part must be non-empty".to_owned());
            } else {
                if prefix.len() > 253 {
                    errs.push("prefix part must be no more than 253 characters".to_owned());
                }
                if !is_dns1123_subdomain(prefix) {
                    errs.push(format!(
                        "prefix part a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '{DNS1123_SUBDOMAIN_FMT}')"
                    ));
                }
            }
            *name
        }
        _ => {
            errs.push(format!(
                "a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '{QUALIFIED_NAME_FMT}') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')"
            ));
            return errs;
        }
    };
    if name.is_empty() {
        errs.push("name part must be non-empty".to_owned());
    } else if name.len() > 63 {
        errs.push("name part must be no more than 63 characters".to_owned());
    }
    if !name.is_empty() && !is_qualified_name_part(name) {
        errs.push(format!(
            "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '{QUALIFIED_NAME_FMT}')"
        ));
    }
    errs
}

/// Kubernetes' `IsValidLabelValue` messages.
fn label_value_problems(value: &str) -> Vec<String> {
    let mut errs = Vec::new();
    if value.len() > 63 {
        errs.push("must be no more than 63 characters".to_owned());
    }
    if !value.is_empty() && !is_qualified_name_part(value) {
        errs.push(format!(
            "a valid label value must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '({QUALIFIED_NAME_FMT})?')"
        ));
    }
    errs
}

/// Follows each child's owner chain, as upstream does; the first revisit is reported.
fn ownership_cycle(
    children: &[ComponentDefinition],
    by_name: &HashMap<&str, &ComponentDefinition>,
) -> Option<Diagnostic> {
    let mut validated: HashSet<&str> = HashSet::new();
    for child in children {
        let mut visited: HashSet<&str> = HashSet::new();
        let mut current = child.name_str();
        let mut already_validated = false;
        let mut reached_root = false;
        while !current.is_empty() && !already_validated {
            if !visited.insert(current) {
                let loc = by_name
                    .get(current)
                    .map_or(&child.location, |c| &c.location);
                return Some(at(
                    Diagnostic::error(
                        codes::OWNERSHIP_CYCLE,
                        format!("ownership cycle detected involving component {current}"),
                    )
                    .with_help("every chain of ownerRefs must end at the root component"),
                    loc,
                ));
            }
            let Some(owner) = by_name.get(current).and_then(|c| c.owner_ref.as_ref()) else {
                reached_root = true;
                break;
            };
            current = owner.value.as_str();
            already_validated = validated.contains(current);
        }
        if !reached_root {
            validated.insert(child.name_str());
        }
    }
    None
}

fn gang_rules(
    def: &Definition,
    by_name: &HashMap<&str, &ComponentDefinition>,
    out: &mut Vec<Diagnostic>,
) {
    let Some(gang) = def
        .instructions
        .as_ref()
        .and_then(|i| i.gang_scheduling.as_ref())
    else {
        return;
    };
    for group in &gang.pod_groups {
        for member in &group.members {
            let Some(name) = &member.component_name else {
                continue;
            };
            if !by_name.contains_key(name.value.as_str()) {
                out.push(spanned(
                    Diagnostic::error(
                        codes::UNKNOWN_GANG_MEMBER,
                        format!(
                            "pod-group member component '{}' is not defined (should be a root or child component)",
                            name.value
                        ),
                    ),
                    name,
                ));
            }
        }
    }
    if let Some(pg) = &gang.pod_group {
        for sub in &pg.sub_groups {
            let Some(name) = &sub.component_name else {
                continue;
            };
            if !by_name.contains_key(name.value.as_str()) {
                out.push(spanned(
                    Diagnostic::warning(
                        codes::UNKNOWN_GANG_MEMBER,
                        format!("podGroup sub-group component '{}' is not defined", name.value),
                    )
                    .with_help("upstream accepts this, but gang scheduling fails when the workload is grouped: name a root or child component"),
                    name,
                ));
            }
        }
    }
}

/// Expressions that cannot be left empty: a `byExpression` (required; upstream fails the status
/// on it) and the entries of a gang member's `groupByKeyPaths` and `filters` (each must give
/// one value per pod). Empty *paths* are "not set", as upstream reads them, and stay allowed.
fn empty_expressions(def: &Definition, out: &mut Vec<Diagnostic>) {
    let blank = |e: &&Spanned<String>| e.value.trim().is_empty();
    for c in def.components() {
        let Some(status) = &c.status_definition else {
            continue;
        };
        let expressions = status
            .status_mappings
            .iter()
            .flat_map(|mapping| &mapping.matchers)
            .filter_map(|m| m.by_expression.as_ref()?.expression.as_ref());
        for e in expressions.filter(blank) {
            out.push(spanned(
                Diagnostic::error(
                    codes::EMPTY_EXPRESSION,
                    "byExpression.expression is empty: the matcher could never match",
                )
                .with_help("write the jq expression whose first result, as text, is compared with expectedResult (e.g. `.status.ready == .spec.replicas`), or remove the matcher"),
                e,
            ));
        }
    }
    let members = def
        .instructions
        .iter()
        .flat_map(|i| &i.gang_scheduling)
        .flat_map(|g| &g.pod_groups)
        .flat_map(|g| &g.members);
    for member in members {
        for (list, entries) in [
            ("groupByKeyPaths", &member.group_by_key_paths),
            ("filters", &member.filters),
        ] {
            for (i, e) in entries.iter().enumerate().filter(|(_, e)| blank(e)) {
                out.push(spanned(
                    Diagnostic::error(
                        codes::EMPTY_EXPRESSION,
                        format!("{list}[{i}] is empty: it fails for every pod"),
                    )
                    .with_help("write the jq expression read from each pod (e.g. `.metadata.labels[\"job-name\"]`), or remove the entry"),
                    e,
                ));
            }
        }
    }
}

fn warnings(def: &Definition, out: &mut Vec<Diagnostic>) {
    let Some(structure) = def.structure.as_ref() else {
        return;
    };
    for child in &structure.child_components {
        if let Some(status) = &child.status_definition {
            out.push(at(
                Diagnostic::warning(
                    codes::STATUS_ON_CHILD,
                    format!(
                        "statusDefinition on child component '{}' is ignored",
                        child.name_str()
                    ),
                )
                .with_help(
                    "only the root component's statusDefinition decides the workload's phase",
                ),
                &status.location,
            ));
        }
    }
    for c in def.components() {
        empty_scale(c, out);
    }
    for c in def.components() {
        if let Some(spec) = &c.spec_definition {
            if let (Some(meta), None) = (&spec.metadata_path, &spec.pod_spec_path) {
                out.push(spanned(
                    Diagnostic::warning(
                        codes::METADATA_WITHOUT_POD_SPEC,
                        format!(
                            "component '{}' has metadataPath without podSpecPath",
                            c.name_str()
                        ),
                    )
                    .with_help("metadataPath is only read together with podSpecPath"),
                    meta,
                ));
            }
        }
        let Some(status) = &c.status_definition else {
            continue;
        };
        for mapping in &status.status_mappings {
            for m in &mapping.matchers {
                if let (Some(phase), None) = (&m.by_phase, &status.phase_definition) {
                    out.push(spanned(
                        Diagnostic::warning(
                            codes::PHASE_WITHOUT_DEFINITION,
                            "byPhase never matches: the statusDefinition has no phaseDefinition",
                        )
                        .with_help("add `phaseDefinition: {path: .status.phase}` (or where the phase lives)"),
                        phase,
                    ));
                }
                let Some(first) = m.by_conditions.first() else {
                    continue;
                };
                match &status.conditions_definition {
                    None => out.push(at(
                        Diagnostic::warning(
                            codes::CONDITIONS_WITHOUT_DEFINITION,
                            "byConditions never matches: the statusDefinition has no conditionsDefinition",
                        )
                        .with_help("add `conditionsDefinition: {path: .status.conditions}` (or where the conditions live)"),
                        &first.location,
                    )),
                    Some(cd) if cd.reason_field_name.is_none() => {
                        for reason in m.by_conditions.iter().filter_map(|e| e.reason.as_ref()) {
                            out.push(spanned(
                                Diagnostic::warning(
                                    codes::REASON_WITHOUT_FIELD_NAME,
                                    "a reason matcher never matches: conditionsDefinition has no reasonFieldName",
                                )
                                .with_help("add `reasonFieldName: reason` to conditionsDefinition"),
                                reason,
                            ));
                        }
                    }
                    Some(_) => {}
                }
            }
        }
    }
    let mut kinds: HashSet<&str> = HashSet::new();
    for gvk in &structure.additional_child_kinds {
        let Some(kind) = &gvk.kind else { continue };
        if !kinds.insert(kind.value.as_str()) {
            out.push(spanned(
                Diagnostic::warning(
                    codes::DUPLICATE_CHILD_KIND,
                    format!("additionalChildKinds lists kind \"{}\" twice", kind.value),
                )
                .with_help("upstream keys this list by kind alone: the API server keeps only one entry per kind"),
                kind,
            ));
        }
    }
}

/// A pod-bearing component whose scale block sets no path: its replicas read as 1, which is
/// what a misspelt `replicasPath` leaves behind once the API server has pruned it. A block that
/// still holds the misspelt field already has its `definition/unknown-field` warning.
fn empty_scale(c: &ComponentDefinition, out: &mut Vec<Diagnostic>) {
    let Some(scale) = &c.scale_definition else {
        return;
    };
    let bears_pods = c.spec_definition.as_ref().is_some_and(|s| {
        s.pod_template_spec_path.is_some() || s.pod_spec_path.is_some() || s.fragmented.is_some()
    });
    let set = [
        &scale.replicas_path,
        &scale.min_replicas_path,
        &scale.max_replicas_path,
    ]
    .into_iter()
    .flatten()
    .any(|p| !p.value.trim().is_empty());
    if bears_pods && !set && !scale.unknown_fields {
        out.push(at(
            Diagnostic::warning(
                codes::EMPTY_SCALE_DEFINITION,
                format!(
                    "scaleDefinition of component '{}' sets no path: its replicas are read as 1",
                    c.name_str()
                ),
            )
            .with_help("write replicasPath (e.g. `.spec.replicas`), or remove the block"),
            &scale.location,
        ));
    }
}

fn closest_name<'a>(name: &str, names: impl Iterator<Item = &'a str>) -> Option<&'a str> {
    names
        .filter(|n| !n.is_empty())
        .map(|n| (strsim(name, n), n))
        .filter(|(d, _)| *d <= 2)
        .min_by_key(|(d, n)| (*d, *n))
        .map(|(_, n)| n)
}

fn strsim(a: &str, b: &str) -> usize {
    crate::definition::read::edit_distance(a, b)
}

/// Paths that edits write through must be path expressions (see [`crate::definition::writable`]).
/// A suspend or resume action that cannot be written never works (a warning, as upstream
/// accepts it and fails when suspending); a pod spec path that cannot be written still reads,
/// only pod spec edits of that component are refused (a note).
fn writable_paths(def: &Definition, out: &mut Vec<Diagnostic>) {
    for c in def.components() {
        if let Some(sd) = &c.suspend_definition {
            for (list, actions) in [
                ("suspendActions", &sd.suspend_actions),
                ("resumeActions", &sd.resume_actions),
            ] {
                for (i, action) in actions.iter().enumerate() {
                    if let Some(path) = &action.path {
                        if let Err(why) = crate::definition::writable::check(
                            &path.value,
                            crate::definition::writable::Defaults::Strict,
                        ) {
                            out.push(spanned(
                                Diagnostic::warning(
                                    codes::PATH_NOT_WRITABLE,
                                    format!("{list}[{i}].path '{}' is not writable: {why}", path.value),
                                )
                                .with_help("an action assigns its value through its path: use a path such as `.spec.suspend`"),
                                path,
                            ));
                        }
                    }
                    if let Some(value) = &action.value {
                        if let Err(why) = crate::definition::decode_action_value(&value.value) {
                            out.push(spanned(
                                Diagnostic::warning(
                                    codes::INVALID_ACTION_VALUE,
                                    format!("{list}[{i}]: {why}"),
                                )
                                .with_help("value is JSON text: \"true\", \"0\", '\"Suspended\"', \"null\""),
                                value,
                            ));
                        }
                    }
                }
            }
        }
        let Some(spec) = &c.spec_definition else {
            continue;
        };
        let fragments = spec
            .fragmented
            .as_ref()
            .map(|f| f.paths())
            .unwrap_or_default();
        let paths = [&spec.pod_template_spec_path, &spec.pod_spec_path]
            .into_iter()
            .flatten()
            .map(|e| (None, e))
            .chain(fragments.into_iter().map(|(field, e)| (Some(field), e)));
        for (field, path) in paths {
            if let Err(why) = crate::definition::writable::check(
                &path.value,
                crate::definition::writable::Defaults::Lenient,
            ) {
                let refused = match field {
                    Some(field) => format!(
                        "edits that change '{field}' of component '{}' are refused",
                        c.name_str()
                    ),
                    None => format!("pod spec edits of component '{}' are refused", c.name_str()),
                };
                out.push(spanned(
                    Diagnostic::info(
                        codes::PATH_NOT_WRITABLE,
                        format!("'{}' is not writable: {why}; {refused}", path.value),
                    )
                    .with_help("reading works; to allow edits, use a path such as `.spec.template` or `.spec.items[] | .template`"),
                    path,
                ));
            }
        }
    }
}
