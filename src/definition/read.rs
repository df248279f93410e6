//! Builds a [`Definition`] from a parsed document.
//!
//! Reading never stops at the first problem: unknown fields are warnings (a newer upstream may
//! have added them), wrong types and missing required fields are errors, and everything that
//! could be read is returned next to the diagnostics.

use crate::definition::schema::{self, ObjectType};
use crate::definition::{
    ByExpression, ComponentDefinition, ComponentTypeSelector, ConditionsDefinition, Definition,
    ExpectedCondition, FragmentedPodSpecDefinition, GangScheduling, Gvk, InstanceSelector,
    Instructions, Language, Location, Phase, PhaseDefinition, PodGroup, PodGroupAlpha,
    PodGroupMember, PodSelector, ReplicaSelector, ScaleDefinition, Spanned, SpecDefinition,
    StatusDefinition, StatusMapping, StatusMatcher, StructureDefinition, SubGroup, SuspendAction,
    SuspendDefinition, Topology, API_VERSION, KIND,
};
use crate::diagnostic::{codes, Diagnostic, TextRange};
use crate::yaml::{Node, NodeValue};

/// Reads a definition document. The diagnostics hold every unknown field (warnings), wrong
/// type, missing required field and envelope problem (errors), in document order.
pub fn read_definition(doc: &Node) -> (Definition, Vec<Diagnostic>) {
    let mut r = Reader { diags: Vec::new() };
    let def = r.definition(doc);
    (def, r.diags)
}

struct Reader {
    diags: Vec<Diagnostic>,
}

/// A mapping being read: its node, its document path and the location of its key.
#[derive(Clone, Copy)]
struct Obj<'n, 'p> {
    node: &'n Node,
    path: &'p str,
    key_range: TextRange,
    /// The name used in messages (`specDefinition`).
    name: &'static str,
}

fn join(parent: &str, key: &str) -> String {
    if parent.is_empty() {
        key.to_owned()
    } else {
        format!("{parent}.{key}")
    }
}

fn loc(range: TextRange, path: &str) -> Location {
    Location {
        range,
        path: path.to_owned(),
    }
}

impl Reader {
    // ----- generic helpers -----------------------------------------------------------------

    /// Checks that `node` is a mapping and warns about fields its type does not have.
    fn object<'n, 'p>(
        &mut self,
        node: &'n Node,
        path: &'p str,
        key_range: TextRange,
        ty: &'static ObjectType,
    ) -> Option<Obj<'n, 'p>> {
        self.object_named(node, path, key_range, ty, ty.name)
    }

    /// [`Self::object`] for a type named by where it is used (a GVK is `kind` in one place and
    /// `additionalChildKinds item` in another).
    fn object_named<'n, 'p>(
        &mut self,
        node: &'n Node,
        path: &'p str,
        key_range: TextRange,
        ty: &'static ObjectType,
        name: &'static str,
    ) -> Option<Obj<'n, 'p>> {
        let Some(entries) = node.as_map() else {
            self.wrong_type(node, path, name, "a map");
            return None;
        };
        if ty.warns_unknown {
            let known = ty.field_names();
            for (key, _) in entries {
                let field = key.as_str().unwrap_or_default();
                if ty.field(field).is_none() {
                    self.unknown_field(key, field, &join(path, field), name, &known);
                }
            }
        }
        Some(Obj {
            node,
            path,
            key_range,
            name,
        })
    }

    fn unknown_field(&mut self, key: &Node, field: &str, path: &str, name: &str, known: &[&str]) {
        let mut d = Diagnostic::warning(
            codes::UNKNOWN_FIELD,
            format!("unknown field \"{field}\" in {name}"),
        )
        .with_range(key.range)
        .with_path(path);
        if let Some(close) = closest(field, known) {
            d = d.with_help(format!("did you mean \"{close}\"?"));
        } else {
            d = d.with_help(format!("known fields: {}", known.join(", ")));
        }
        self.diags.push(d);
    }

    fn wrong_type(&mut self, node: &Node, path: &str, field: &str, expected: &str) {
        let mut d = Diagnostic::error(
            codes::WRONG_TYPE,
            format!("{field} must be {expected}, found {}", node.type_name()),
        )
        .with_range(node.range)
        .with_path(path);
        if expected == "a string" && matches!(node.value, NodeValue::Bool(_) | NodeValue::Number(_))
        {
            let text = node.to_json().to_string();
            d = d.with_help(format!("quote it: \"{text}\""));
        }
        self.diags.push(d);
    }

    fn missing(&mut self, obj: Obj<'_, '_>, field: &str) {
        self.diags.push(
            Diagnostic::error(
                codes::MISSING_FIELD,
                format!("missing required field \"{field}\" in {}", obj.name),
            )
            .with_range(obj.key_range)
            .with_path(join(obj.path, field)),
        );
    }

    /// The key and value of `field`; `None` when absent or null (Go decodes null as unset).
    /// Every field is read through here, so an explicit `null` is a missing field everywhere:
    /// a required one gets the same error as when it is left out.
    fn field<'n>(obj: Obj<'n, '_>, field: &str) -> Option<(&'n Node, &'n Node)> {
        obj.node.get_entry(field).filter(|(_, v)| !v.is_null())
    }

    fn string(&mut self, obj: Obj<'_, '_>, field: &str) -> Option<Spanned<String>> {
        let (_, value) = Self::field(obj, field)?;
        let path = join(obj.path, field);
        self.string_value(value, path, field)
    }

    fn string_value(&mut self, value: &Node, path: String, field: &str) -> Option<Spanned<String>> {
        match value.as_str() {
            Some(s) => Some(Spanned::new(s.to_owned(), value.range, path)),
            None => {
                self.wrong_type(value, &path, field, "a string");
                None
            }
        }
    }

    fn required_string(&mut self, obj: Obj<'_, '_>, field: &str) -> Option<Spanned<String>> {
        if Self::field(obj, field).is_none() {
            self.missing(obj, field);
            return None;
        }
        self.string(obj, field)
    }

    /// A sub-mapping: its node, path and key range.
    fn sub<'n>(&mut self, obj: Obj<'n, '_>, field: &str) -> Option<(&'n Node, String, TextRange)> {
        let (key, value) = Self::field(obj, field)?;
        Some((value, join(obj.path, field), key.range))
    }

    /// A list field's items with their paths; wrong types reported.
    fn list<'n>(&mut self, obj: Obj<'n, '_>, field: &str) -> Vec<(&'n Node, String)> {
        let Some((_, value)) = Self::field(obj, field) else {
            return Vec::new();
        };
        let path = join(obj.path, field);
        match value.as_seq() {
            Some(items) => items
                .iter()
                .enumerate()
                .map(|(i, n)| (n, format!("{path}[{i}]")))
                .collect(),
            None => {
                self.wrong_type(value, &path, field, "a list");
                Vec::new()
            }
        }
    }

    fn string_list(&mut self, obj: Obj<'_, '_>, field: &str) -> Vec<Spanned<String>> {
        let items = self.list(obj, field);
        items
            .into_iter()
            .filter_map(|(n, path)| self.string_value(n, path, field))
            .collect()
    }

    // ----- the document --------------------------------------------------------------------

    fn definition(&mut self, doc: &Node) -> Definition {
        let mut def = Definition {
            spec_location: loc(TextRange::empty(doc.range.start as usize), ""),
            ..Definition::default()
        };
        let Some(top) = self.object(doc, "", doc.range, &schema::DEFINITION) else {
            return def;
        };
        def.api_version = self.string(top, "apiVersion");
        def.kind = self.string(top, "kind");
        self.envelope(doc, &def.api_version, "apiVersion", API_VERSION);
        self.envelope(doc, &def.kind, "kind", KIND);

        match Self::field(top, "metadata") {
            Some((_, meta)) if meta.as_map().is_some() => {
                def.name = meta
                    .get("name")
                    .filter(|n| !n.is_null())
                    .and_then(|n| self.string_value(n, "metadata.name".to_owned(), "name"));
            }
            Some((_, meta)) => self.wrong_type(meta, "metadata", "metadata", "a map"),
            None => {}
        }
        if let Some((key, _)) = Self::field(top, "status") {
            self.diags.push(
                Diagnostic::warning(
                    codes::STATUS_IGNORED,
                    "a definition's status is never read: a definition is a spec",
                )
                .with_range(key.range)
                .with_path("status")
                .with_help("remove `status:` (copied from a cluster object, it says nothing here)"),
            );
        }
        if def.name.is_none() {
            let range = doc
                .get_entry("metadata")
                .map_or(TextRange::empty(doc.range.start as usize), |(k, _)| k.range);
            self.diags.push(
                Diagnostic::warning(codes::MISSING_FIELD, "missing field \"name\" in metadata")
                    .with_range(range)
                    .with_path("metadata.name")
                    .with_help("name the definition, e.g. after its root kind: `metadata: {name: batch-job-v1}`"),
            );
        }

        let Some((spec_node, spec_path, spec_key)) = self.sub(top, "spec") else {
            self.missing(top, "spec");
            return def;
        };
        def.spec_location = loc(spec_key, &spec_path);
        let Some(spec) = self.object(spec_node, &spec_path, spec_key, &schema::SPEC) else {
            return def;
        };
        match self.sub(spec, "structureDefinition") {
            Some((n, p, k)) => def.structure = self.structure(n, &p, k),
            None => self.missing(spec, "structureDefinition"),
        }
        if let Some((n, p, k)) = self.sub(spec, "optimizationInstructions") {
            def.instructions = self.instructions(n, &p, k);
        }
        def
    }

    fn envelope(
        &mut self,
        doc: &Node,
        value: &Option<Spanned<String>>,
        field: &str,
        expected: &str,
    ) {
        let problem = match value {
            Some(v) if v.value == expected => return,
            Some(v) => Diagnostic::error(
                codes::NOT_A_DEFINITION,
                format!(
                    "{field} is \"{}\", a definition has {field} \"{expected}\"",
                    v.value
                ),
            )
            .with_range(v.range),
            None => Diagnostic::error(
                codes::NOT_A_DEFINITION,
                format!("missing {field}: a definition has {field} \"{expected}\""),
            )
            .with_range(TextRange::empty(doc.range.start as usize)),
        };
        self.diags.push(problem.with_path(field).with_help(format!(
            "a definition starts with `apiVersion: {API_VERSION}` and `kind: {KIND}`"
        )));
    }

    fn structure(
        &mut self,
        node: &Node,
        path: &str,
        key: TextRange,
    ) -> Option<StructureDefinition> {
        let obj = self.object(node, path, key, &schema::STRUCTURE)?;
        let mut s = StructureDefinition {
            location: loc(key, path),
            ..Default::default()
        };
        match self.sub(obj, "rootComponent") {
            Some((n, p, k)) => s.root_component = self.component(n, &p, k),
            None => self.missing(obj, "rootComponent"),
        }
        for (n, p) in self.list(obj, "childComponents") {
            if let Some(c) = self.component(n, &p, n.range) {
                s.child_components.push(c);
            }
        }
        for (n, p) in self.list(obj, "additionalChildKinds") {
            if let Some(g) = self.gvk(n, &p, n.range, "additionalChildKinds item") {
                s.additional_child_kinds.push(g);
            }
        }
        Some(s)
    }

    fn gvk(&mut self, node: &Node, path: &str, key: TextRange, name: &'static str) -> Option<Gvk> {
        let obj = self.object_named(node, path, key, &schema::GVK, name)?;
        Some(Gvk {
            group: self.required_string(obj, "group"),
            version: self.required_string(obj, "version"),
            kind: self.required_string(obj, "kind"),
            location: loc(key, path),
        })
    }

    fn component(
        &mut self,
        node: &Node,
        path: &str,
        key: TextRange,
    ) -> Option<ComponentDefinition> {
        let obj = self.object(node, path, key, &schema::COMPONENT)?;
        let mut c = ComponentDefinition {
            name: self.string(obj, "name"),
            location: loc(key, path),
            entry: TextRange::new(
                key.start.min(node.range.start) as usize,
                node.range.end.max(key.end) as usize,
            ),
            ..Default::default()
        };
        if let Some((n, p, k)) = self.sub(obj, "kind") {
            c.kind = self.gvk(n, &p, k, "kind");
        }
        c.owner_ref = self.string(obj, "ownerRef");
        if let Some((n, p, k)) = self.sub(obj, "specDefinition") {
            c.spec_definition = self.spec(n, &p, k);
        }
        if let Some((n, p, k)) = self.sub(obj, "scaleDefinition") {
            let before = self.diags.len();
            let o = self.object(n, &p, k, &schema::SCALE);
            // Reading the block itself reports only its unknown fields (one that is no map is none).
            let unknown_fields = self.diags.len() > before;
            c.scale_definition = o.map(|o| ScaleDefinition {
                replicas_path: self.string(o, "replicasPath"),
                min_replicas_path: self.string(o, "minReplicasPath"),
                max_replicas_path: self.string(o, "maxReplicasPath"),
                unknown_fields,
                location: loc(k, &p),
            });
        }
        if let Some((n, p, k)) = self.sub(obj, "statusDefinition") {
            c.status_definition = self.status(n, &p, k);
        }
        if let Some((n, p, k)) = self.sub(obj, "suspendDefinition") {
            c.suspend_definition = self.suspend(n, &p, k);
        }
        c.instance_id_path = self.string(obj, "instanceIdPath");
        if let Some((n, p, k)) = self.sub(obj, "podSelector") {
            c.pod_selector = self.pod_selector(n, &p, k);
        }
        Some(c)
    }

    fn spec(&mut self, node: &Node, path: &str, key: TextRange) -> Option<SpecDefinition> {
        let obj = self.object(node, path, key, &schema::SPEC_DEFINITION)?;
        let mut s = SpecDefinition {
            pod_template_spec_path: self.string(obj, "podTemplateSpecPath"),
            pod_spec_path: self.string(obj, "podSpecPath"),
            metadata_path: self.string(obj, "metadataPath"),
            location: loc(key, path),
            ..Default::default()
        };
        if let Some((n, p, k)) = self.sub(obj, "fragmentedPodSpecDefinition") {
            if let Some(o) = self.object(n, &p, k, &schema::FRAGMENTED) {
                s.fragmented = Some(FragmentedPodSpecDefinition {
                    scheduler_name_path: self.string(o, "schedulerNamePath"),
                    labels_path: self.string(o, "labelsPath"),
                    annotations_path: self.string(o, "annotationsPath"),
                    resources_path: self.string(o, "resourcesPath"),
                    resource_claims_path: self.string(o, "resourceClaimsPath"),
                    pod_affinity_path: self.string(o, "podAffinityPath"),
                    node_affinity_path: self.string(o, "nodeAffinityPath"),
                    containers_path: self.string(o, "containersPath"),
                    container_path: self.string(o, "containerPath"),
                    priority_class_name_path: self.string(o, "priorityClassNamePath"),
                    image_path: self.string(o, "imagePath"),
                    location: loc(k, &p),
                });
            }
        }
        Some(s)
    }

    fn suspend(&mut self, node: &Node, path: &str, key: TextRange) -> Option<SuspendDefinition> {
        let obj = self.object(node, path, key, &schema::SUSPEND)?;
        let mut s = SuspendDefinition {
            location: loc(key, path),
            ..Default::default()
        };
        for (field, out) in [
            ("suspendActions", &mut s.suspend_actions),
            ("resumeActions", &mut s.resume_actions),
        ] {
            for (n, p) in self.list(obj, field) {
                if let Some(o) = self.object(n, &p, n.range, &schema::SUSPEND_ACTION) {
                    out.push(SuspendAction {
                        path: self.string(o, "path"),
                        value: self.string(o, "value"),
                        location: loc(n.range, &p),
                    });
                }
            }
        }
        Some(s)
    }

    fn pod_selector(&mut self, node: &Node, path: &str, key: TextRange) -> Option<PodSelector> {
        let obj = self.object(node, path, key, &schema::POD_SELECTOR)?;
        let mut s = PodSelector {
            location: loc(key, path),
            ..Default::default()
        };
        if let Some((n, p, k)) = self.sub(obj, "componentTypeSelector") {
            if let Some(o) = self.object(n, &p, k, &schema::COMPONENT_TYPE_SELECTOR) {
                let mut t = ComponentTypeSelector {
                    key_path: self.string(o, "keyPath"),
                    value: self.string(o, "value"),
                    location: loc(k, &p),
                    ..Default::default()
                };
                if let Some((labels, lp, _)) = self.sub(o, "matchLabels") {
                    match labels.as_map() {
                        Some(entries) => {
                            let mut out = Vec::new();
                            for (lk, lv) in entries {
                                let name = lk.as_str().unwrap_or_default();
                                let vp = join(&lp, name);
                                if let Some(v) = self.string_value(lv, vp.clone(), name) {
                                    out.push((Spanned::new(name.to_owned(), lk.range, vp), v));
                                }
                            }
                            t.match_labels = Some(out);
                        }
                        None => self.wrong_type(labels, &lp, "matchLabels", "a map"),
                    }
                }
                s.component_type_selector = Some(t);
            }
        }
        if let Some((n, p, k)) = self.sub(obj, "componentInstanceSelector") {
            if let Some(o) = self.object(n, &p, k, &schema::COMPONENT_INSTANCE_SELECTOR) {
                s.component_instance_selector = Some(InstanceSelector {
                    id_path: self.required_string(o, "idPath"),
                    location: loc(k, &p),
                });
            }
        }
        if let Some((n, p, k)) = self.sub(obj, "replicaSelector") {
            if let Some(o) = self.object(n, &p, k, &schema::REPLICA_SELECTOR) {
                s.replica_selector = Some(ReplicaSelector {
                    key_path: self.required_string(o, "keyPath"),
                    location: loc(k, &p),
                });
            }
        }
        Some(s)
    }

    fn status(&mut self, node: &Node, path: &str, key: TextRange) -> Option<StatusDefinition> {
        let obj = self.object(node, path, key, &schema::STATUS)?;
        let mut s = StatusDefinition {
            location: loc(key, path),
            ..Default::default()
        };
        if let Some((n, p, k)) = self.sub(obj, "phaseDefinition") {
            if let Some(o) = self.object(n, &p, k, &schema::PHASE) {
                s.phase_definition = Some(PhaseDefinition {
                    path: self.required_string(o, "path"),
                    location: loc(k, &p),
                });
            }
        }
        if let Some((n, p, k)) = self.sub(obj, "conditionsDefinition") {
            if let Some(o) = self.object(n, &p, k, &schema::CONDITIONS) {
                // typeFieldName/statusFieldName: the CRD defaults; message/reason stay unset,
                // because upstream then does not read them at all.
                s.conditions_definition = Some(ConditionsDefinition {
                    path: self.required_string(o, "path"),
                    type_field_name: self
                        .string(o, "typeFieldName")
                        .map_or_else(|| "type".to_owned(), |v| v.value),
                    status_field_name: self
                        .string(o, "statusFieldName")
                        .map_or_else(|| "status".to_owned(), |v| v.value),
                    message_field_name: self.string(o, "messageFieldName").map(|v| v.value),
                    reason_field_name: self.string(o, "reasonFieldName").map(|v| v.value),
                    location: loc(k, &p),
                });
            }
        }
        match self.sub(obj, "statusMappings") {
            Some((n, p, k)) => {
                s.has_status_mappings = true;
                s.status_mappings = self.mappings(n, &p, k);
            }
            None => self.missing(obj, "statusMappings"),
        }
        Some(s)
    }

    fn mappings(&mut self, node: &Node, path: &str, key: TextRange) -> Vec<StatusMapping> {
        let Some(obj) = self.object(node, path, key, &schema::STATUS_MAPPINGS) else {
            return Vec::new();
        };
        let mut out = Vec::new();
        for phase in Phase::MAPPABLE {
            let Some(name) = phase.mapping_key() else {
                continue;
            };
            let Some((k, _)) = Self::field(obj, name) else {
                continue;
            };
            let mut mapping = StatusMapping {
                phase,
                matchers: Vec::new(),
                location: loc(k.range, &join(path, name)),
            };
            for (n, p) in self.list(obj, name) {
                if let Some(m) = self.matcher(n, &p) {
                    mapping.matchers.push(m);
                }
            }
            out.push(mapping);
        }
        out
    }

    fn matcher(&mut self, node: &Node, path: &str) -> Option<StatusMatcher> {
        let obj = self.object(node, path, node.range, &schema::MATCHER)?;
        let mut m = StatusMatcher {
            by_phase: self.string(obj, "byPhase"),
            location: loc(node.range, path),
            ..Default::default()
        };
        for (n, p) in self.list(obj, "byConditions") {
            if let Some(o) = self.object(n, &p, n.range, &schema::EXPECTED_CONDITION) {
                m.by_conditions.push(ExpectedCondition {
                    condition_type: self.required_string(o, "type"),
                    status: self.string(o, "status"),
                    reason: self.string(o, "reason"),
                    location: loc(n.range, &p),
                });
            }
        }
        if let Some((n, p, k)) = self.sub(obj, "byExpression") {
            if let Some(o) = self.object(n, &p, k, &schema::BY_EXPRESSION) {
                let language = match self.string(o, "language") {
                    None => Language::Jq,
                    Some(l) if l.value == "jq" => Language::Jq,
                    Some(l) if l.value == "cel" => Language::Cel,
                    Some(l) => {
                        self.diags.push(
                            Diagnostic::error(
                                codes::INVALID_VALUE,
                                format!("unknown expression language \"{}\"", l.value),
                            )
                            .with_range(l.range)
                            .with_path(l.path)
                            .with_help("use `jq` (the default) or `cel`"),
                        );
                        Language::Jq
                    }
                };
                m.by_expression = Some(ByExpression {
                    expression: self.required_string(o, "expression"),
                    expected_result: self.required_string(o, "expectedResult"),
                    language,
                    location: loc(k, &p),
                });
            }
        }
        Some(m)
    }

    fn instructions(&mut self, node: &Node, path: &str, key: TextRange) -> Option<Instructions> {
        let obj = self.object(node, path, key, &schema::INSTRUCTIONS)?;
        let mut ins = Instructions {
            location: loc(key, path),
            ..Default::default()
        };
        let Some((n, p, k)) = self.sub(obj, "gangScheduling") else {
            return Some(ins);
        };
        let Some(g) = self.object(n, &p, k, &schema::GANG) else {
            return Some(ins);
        };
        let mut gang = GangScheduling {
            location: loc(k, &p),
            ..Default::default()
        };
        for (n, p) in self.list(g, "podGroups") {
            let Some(o) = self.object(n, &p, n.range, &schema::POD_GROUPS_ITEM) else {
                continue;
            };
            let mut group = PodGroupAlpha {
                name: self.required_string(o, "name"),
                location: loc(n.range, &p),
                ..Default::default()
            };
            if Self::field(o, "members").is_none() {
                self.missing(o, "members");
            }
            for (mn, mp) in self.list(o, "members") {
                if let Some(mo) = self.object(mn, &mp, mn.range, &schema::MEMBER) {
                    group.members.push(PodGroupMember {
                        component_name: self.required_string(mo, "componentName"),
                        group_by_key_paths: self.string_list(mo, "groupByKeyPaths"),
                        filters: self.string_list(mo, "filters"),
                        location: loc(mn.range, &mp),
                    });
                }
            }
            gang.pod_groups.push(group);
        }
        if let Some((n, p, k)) = self.sub(g, "podGroup") {
            if let Some(o) = self.object(n, &p, k, &schema::POD_GROUP) {
                let mut pg = PodGroup {
                    name: self.required_string(o, "name"),
                    location: loc(k, &p),
                    ..Default::default()
                };
                for (sn, sp) in self.list(o, "subGroups") {
                    if let Some(so) = self.object(sn, &sp, sn.range, &schema::SUB_GROUP) {
                        let mut sub = SubGroup {
                            component_name: self.required_string(so, "componentName"),
                            location: loc(sn.range, &sp),
                            ..Default::default()
                        };
                        if let Some((tn, tp, tk)) = self.sub(so, "topology") {
                            sub.topology = self.topology(tn, &tp, tk);
                        }
                        pg.sub_groups.push(sub);
                    }
                }
                if let Some((tn, tp, tk)) = self.sub(o, "topology") {
                    pg.topology = self.topology(tn, &tp, tk);
                }
                gang.pod_group = Some(pg);
            }
        }
        ins.gang_scheduling = Some(gang);
        Some(ins)
    }

    fn topology(&mut self, node: &Node, path: &str, key: TextRange) -> Option<Topology> {
        let o = self.object(node, path, key, &schema::TOPOLOGY)?;
        Some(Topology {
            topology_name: self.string(o, "topologyName"),
            preferred_topology_level: self.string(o, "preferredTopologyLevel"),
            required_topology_level: self.string(o, "requiredTopologyLevel"),
            location: loc(key, path),
        })
    }
}

/// The known field closest to `field`, when it is close enough to be a likely typo.
pub(crate) fn closest<'k>(field: &str, known: &[&'k str]) -> Option<&'k str> {
    let limit = (field.chars().count() / 3).max(2);
    known
        .iter()
        .map(|k| (edit_distance(&field.to_lowercase(), &k.to_lowercase()), *k))
        .filter(|(d, _)| *d <= limit)
        .min_by_key(|(d, _)| *d)
        .map(|(_, k)| k)
}

/// Levenshtein distance in characters (for "did you mean" hints).
pub(crate) fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut cur = vec![i + 1; b.len() + 1];
        for (j, cb) in b.iter().enumerate() {
            let sub = prev.get(j).copied().unwrap_or(0) + usize::from(ca != *cb);
            let del = prev.get(j + 1).copied().unwrap_or(0) + 1;
            let ins = cur.get(j).copied().unwrap_or(0) + 1;
            if let Some(c) = cur.get_mut(j + 1) {
                *c = sub.min(del).min(ins);
            }
        }
        prev = cur;
    }
    prev.last().copied().unwrap_or(0)
}
