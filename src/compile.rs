//! Compile once: a definition text becomes a [`CompiledDefinition`].
//!
//! Parsing, reading, validating and compiling every expression happen here, once; the result
//! keeps everything [`resolve`](crate::resolve) needs as plain plans ([`crate::plan`]) that
//! point at compiled expressions. Problems become diagnostics; compiling never fails.

use serde_json::Value;

use crate::definition::{
    self, ComponentDefinition, Definition, Expr, Language, Spanned, StatusDefinition,
};
use crate::diagnostic::{codes, Diagnostic, LineIndex, Severity};
use crate::expr::{ExprError, ExprId, ExprSet, ExprSetBuilder};
use crate::plan::{
    ActionPlan, AlphaGroupPlan, CompiledExpr, ComponentPlan, ConditionPlan, ConditionsPlan,
    ExpressionPlan, GangPlan, MatcherPlan, MemberPlan, PodGroupPlan, PodSelectorPlan, ScalePlan,
    SpecPlan, SpecWrite, StatusPlan, TypeSelectorPlan, WritePath, WritePlans,
};
use crate::view::GvkView;

/// A definition parsed, validated and compiled once; resolve objects with it many times.
pub struct CompiledDefinition {
    text: String,
    definition: Definition,
    diagnostics: Vec<Diagnostic>,
    pub(crate) exprs: ExprSet,
    /// Index 0 is the root (when there is one); children follow in document order.
    pub(crate) components: Vec<ComponentPlan>,
    pub(crate) status: Option<StatusPlan>,
    /// Gang scheduling instructions, when the definition has them.
    pub(crate) gang: Option<GangPlan>,
    /// How edits write through the definition's paths (see [`crate::edit`]).
    pub(crate) writes: WritePlans,
    /// How every component's instances are located in an object (see [`crate::provenance`]).
    pub(crate) locate: crate::provenance::LocateSet,
    /// A hash of what makes two compiled definitions give the same views (see
    /// [`identity`](Self::identity)), taken the first time it is asked for.
    identity: std::cell::OnceCell<u64>,
    /// The lines of [`text`](Self::text), indexed the first time they are asked for (see
    /// [`lines`](Self::lines)).
    lines: std::cell::OnceCell<LineIndex>,
}

impl CompiledDefinition {
    /// Whether compiling `text` needs a CEL engine (it reads the definition, without
    /// validating or compiling it): the npm package loads its CEL module before compiling such
    /// a text where loading is asynchronous (browsers).
    pub fn needs_cel(text: &str) -> bool {
        crate::yaml::parse_single(text)
            .is_ok_and(|node| definition::read_definition(&node).0.holds_cel())
    }

    /// Compiles a definition written as YAML or JSON. Never fails: problems are in
    /// [`diagnostics`](Self::diagnostics).
    pub fn from_text(text: &str) -> CompiledDefinition {
        Self::from_read(text, crate::yaml::parse_single(text))
    }

    /// A definition given as a plain object that could not be read at all (the wasm boundary
    /// found it too deep or too large before serialising it): nothing compiled, and `problem`,
    /// which has no range (there is no text).
    pub fn unread(problem: Diagnostic) -> CompiledDefinition {
        Self::from_read("", Err(problem))
    }

    /// Compiles what parsing `text` gave.
    fn from_read(
        text: &str,
        parsed: Result<crate::yaml::Node, Diagnostic>,
    ) -> CompiledDefinition {
        let (definition, mut diagnostics) = match parsed {
            Ok(node) => definition::read_definition(&node),
            Err(diagnostic) => (Definition::default(), vec![diagnostic]),
        };
        let parsed = diagnostics.iter().all(|d| d.code != codes::SYNTAX);
        if parsed {
            diagnostics.extend(crate::validate::validate(&definition));
        }
        let mut compiler = Compiler {
            text,
            exprs: ExprSetBuilder::new(),
            added: Vec::new(),
            diagnostics,
        };
        let (mut components, mut status, mut gang) = compiler.plan(&definition);
        let writes = compiler.write_plans(&definition, components.len());
        let locate = compiler.locate_plans(&definition, &mut components);
        let Compiler {
            exprs,
            added,
            mut diagnostics,
            ..
        } = compiler;
        let (exprs, failed) = exprs.finish();
        if !failed.is_empty() {
            for (id, errors) in &failed {
                if let Some((_, e)) = added.iter().find(|(a, _)| a == id) {
                    let start = expression_start(text, e);
                    for err in errors {
                        diagnostics.push(expr_diagnostic(err, e, start));
                    }
                }
            }
            let ids: Vec<ExprId> = failed.iter().map(|(id, _)| *id).collect();
            forget_failed(&mut components, status.as_mut(), &ids);
            forget_failed_pod_side(&mut components, gang.as_mut(), &ids);
        }
        sort_diagnostics(&mut diagnostics);
        CompiledDefinition {
            text: text.to_owned(),
            definition,
            diagnostics,
            exprs,
            components,
            status,
            gang,
            writes,
            locate,
            identity: std::cell::OnceCell::new(),
            lines: std::cell::OnceCell::new(),
        }
    }

    /// Compiles a definition given as a plain object (e.g. from JavaScript). Diagnostic
    /// ranges then refer to [`text`](Self::text), the object printed as JSON; views carry no
    /// definition ranges (the caller has no text they could point into).
    pub fn from_json(value: &Value) -> CompiledDefinition {
        let text = serde_json::to_string_pretty(value).unwrap_or_default();
        let mut compiled = Self::from_text(&text);
        compiled.forget_entry_ranges();
        compiled
    }

    /// True when views carry the definition's ranges (a definition compiled from text; not
    /// one from JSON, whose ranges are dropped).
    pub(crate) fn keeps_ranges(&self) -> bool {
        self.components.iter().any(|c| c.range.is_some())
    }

    /// A hash of the definition's text and whether its views carry ranges: what a batch's
    /// fingerprint of a view needs of the definition, hashed once instead of once per workload.
    pub(crate) fn identity(&self) -> u64 {
        *self.identity.get_or_init(|| {
            use std::hash::{Hash, Hasher};
            let mut h = std::collections::hash_map::DefaultHasher::new();
            self.text.hash(&mut h);
            self.keeps_ranges().hash(&mut h);
            h.finish()
        })
    }

    /// Compiles a definition given as JSON text that is not the caller's (a plain JavaScript
    /// object as the engine's `JSON.stringify` wrote it): as [`from_json`](Self::from_json)
    /// when it reads within the nesting limit; a deeper one is compiled from the text itself,
    /// whose reading says where it went too deep.
    pub fn from_json_text(text: &str) -> CompiledDefinition {
        match crate::yaml::parse_json(text) {
            Ok(value) => Self::from_json(&value),
            Err(_) => Self::from_text(text),
        }
    }

    /// Drops the definition ranges that views carry (components, matchers).
    pub(crate) fn forget_entry_ranges(&mut self) {
        for c in &mut self.components {
            c.range = None;
        }
        for (_, matchers) in self.status.iter_mut().flat_map(|s| &mut s.mappings) {
            for m in matchers {
                m.range = None;
            }
        }
    }

    /// `metadata.name`.
    pub fn name(&self) -> Option<&str> {
        self.definition.name.as_ref().map(|n| n.value.as_str())
    }

    /// The root component's group/version/kind, when complete enough to match objects.
    pub fn root_gvk(&self) -> Option<GvkView> {
        self.components.first().and_then(|c| c.kind.clone())
    }

    /// Component names, root first, in document order.
    pub fn component_names(&self) -> Vec<String> {
        self.definition
            .components()
            .map(|c| c.name_str().to_owned())
            .collect()
    }

    /// Every problem found while reading, validating and compiling, in text order.
    pub fn diagnostics(&self) -> &[Diagnostic] {
        &self.diagnostics
    }

    /// True when no diagnostic is an error.
    pub fn is_valid(&self) -> bool {
        !self.diagnostics.iter().any(Diagnostic::is_error)
    }

    /// The definition text the diagnostics' ranges refer to.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// The line index of [`text`](Self::text), built once: whoever turns this definition's
    /// ranges into lines and columns (every resolve at the wasm boundary) shares it, however
    /// many handles share the definition.
    pub fn lines(&self) -> &LineIndex {
        self.lines.get_or_init(|| LineIndex::new(&self.text))
    }

    /// The definition as read.
    pub fn definition(&self) -> &Definition {
        &self.definition
    }
}

/// Orders diagnostics by position (unpositioned last), keeping the order of equals.
pub(crate) fn sort_diagnostics(diagnostics: &mut [Diagnostic]) {
    diagnostics.sort_by_key(|d| d.range.map_or((1, 0), |r| (0, r.start)));
}

struct Compiler<'t> {
    text: &'t str,
    exprs: ExprSetBuilder,
    /// Every expression added, for diagnostics on errors found when the set is finished.
    added: Vec<(ExprId, Expr)>,
    diagnostics: Vec<Diagnostic>,
}

/// Marks the expressions that did not compile when the set was finished as not compiled
/// (`id: None`), like those rejected when added.
fn forget_failed(
    components: &mut [ComponentPlan],
    status: Option<&mut StatusPlan>,
    ids: &[ExprId],
) {
    let mut forget = |e: &mut CompiledExpr| {
        if e.id.is_some_and(|id| ids.contains(&id)) {
            e.id = None;
        }
    };
    for c in components {
        c.instance_ids.iter_mut().for_each(&mut forget);
        match &mut c.spec {
            SpecPlan::None => {}
            SpecPlan::Template(e) | SpecPlan::PodSpec(e) => forget(e),
            SpecPlan::Fragmented(parts) => parts.iter_mut().for_each(|(_, e)| forget(e)),
        }
        if let Some(scale) = &mut c.scale {
            [&mut scale.replicas, &mut scale.min, &mut scale.max]
                .into_iter()
                .flatten()
                .for_each(&mut forget);
        }
    }
    if let Some(status) = status {
        status.phase.iter_mut().for_each(&mut forget);
        if let Some(conditions) = &mut status.conditions {
            forget(&mut conditions.path);
        }
        for (_, matchers) in &mut status.mappings {
            for m in matchers {
                if let Some(by) = &mut m.by_expression {
                    forget(&mut by.expr);
                }
            }
        }
    }
}

/// Like [`forget_failed`], for the expressions evaluated on pods.
fn forget_failed_pod_side(
    components: &mut [ComponentPlan],
    gang: Option<&mut GangPlan>,
    ids: &[ExprId],
) {
    let forget = |e: &mut CompiledExpr| {
        if e.id.is_some_and(|id| ids.contains(&id)) {
            e.id = None;
        }
    };
    for c in components {
        if let Some(sel) = &mut c.pod_selector {
            if let Some(t) = &mut sel.type_selector {
                t.key.iter_mut().for_each(forget);
            }
            sel.instance_id.iter_mut().for_each(forget);
            sel.replica_key.iter_mut().for_each(forget);
        }
    }
    for group in gang.into_iter().flat_map(|g| &mut g.pod_groups) {
        for m in &mut group.members {
            m.group_by.iter_mut().chain(&mut m.filters).for_each(forget);
        }
    }
}

type Plans = (Vec<ComponentPlan>, Option<StatusPlan>, Option<GangPlan>);

impl Compiler<'_> {
    fn plan(&mut self, def: &Definition) -> Plans {
        let all: Vec<&ComponentDefinition> = def.components().collect();
        let has_root = def
            .structure
            .as_ref()
            .is_some_and(|s| s.root_component.is_some());
        let mut plans: Vec<ComponentPlan> = all.iter().map(|c| self.component(c)).collect();
        // Children in document order, attached to their owner (first component of that name).
        if has_root {
            for (i, c) in all.iter().enumerate().skip(1) {
                let Some(owner) = c.owner_ref.as_ref() else {
                    continue;
                };
                if let Some(parent) = all.iter().position(|p| p.name_str() == owner.value) {
                    if parent != i && !reaches(&all, parent, i) {
                        plans[parent].children.push(i);
                    }
                }
            }
        }
        let status = if has_root {
            all.first()
                .and_then(|root| root.status_definition.as_ref())
                .map(|s| self.status(s))
        } else {
            None
        };
        // Statuses on children are ignored upstream; still check their expressions.
        for c in all.iter().skip(1) {
            if let Some(s) = &c.status_definition {
                self.status(s);
            }
        }
        let gang = self.gang(def, &all);
        if !has_root {
            plans.clear();
        }
        (plans, status, gang)
    }

    fn component(&mut self, c: &ComponentDefinition) -> ComponentPlan {
        let spec = match &c.spec_definition {
            None => SpecPlan::None,
            Some(s) => {
                let template = s.pod_template_spec_path.as_ref().map(|e| self.jq(e));
                let pod_spec = s.pod_spec_path.as_ref().map(|e| self.jq(e));
                if let Some(m) = &s.metadata_path {
                    self.jq(m);
                }
                let fragmented = s.fragmented.as_ref().map(|f| {
                    f.paths()
                        .into_iter()
                        .map(|(k, e)| (k, self.jq(e)))
                        .collect()
                });
                // Validation reports several kinds at once; resolve the first, as upstream
                // would refuse the definition anyway.
                match (template, pod_spec, fragmented) {
                    (Some(t), _, _) => SpecPlan::Template(t),
                    (None, Some(p), _) => SpecPlan::PodSpec(p),
                    (None, None, Some(f)) => SpecPlan::Fragmented(f),
                    (None, None, None) => SpecPlan::None,
                }
            }
        };
        let scale = c.scale_definition.as_ref().map(|s| ScalePlan {
            replicas: s.replicas_path.as_ref().map(|e| self.jq(e)),
            min: s.min_replicas_path.as_ref().map(|e| self.jq(e)),
            max: s.max_replicas_path.as_ref().map(|e| self.jq(e)),
        });
        if let Some(sd) = &c.suspend_definition {
            for a in sd.suspend_actions.iter().chain(&sd.resume_actions) {
                if let Some(p) = &a.path {
                    self.jq(p);
                }
            }
        }
        let instance_ids = c.instance_id_path.as_ref().map(|e| self.jq(e));
        let pod_selector = c.pod_selector.as_ref().map(|sel| self.pod_selector(sel));
        ComponentPlan {
            name: c.name_str().to_owned(),
            kind: c.kind.as_ref().map(gvk_view),
            children: Vec::new(),
            instance_ids,
            spec,
            scale,
            has_spec_definition: c.spec_definition.is_some(),
            pod_selector,
            range: Some(c.entry),
            locate: crate::provenance::LocatePlan::default(),
        }
    }

    /// A `podSelector`: its paths are evaluated on pods. A type selector with a value compiles
    /// `keyPath == <value as JSON>`, the text upstream builds.
    fn pod_selector(&mut self, sel: &definition::PodSelector) -> PodSelectorPlan {
        let type_selector = sel.component_type_selector.as_ref().map(|t| {
            let key = t.key_path.as_ref().map(|k| match &t.value {
                Some(v) => {
                    // Validated first as written, so that problems point into the keyPath.
                    let bare = self.jq(k);
                    if bare.id.is_none() {
                        return bare;
                    }
                    let text = format!("{} == {}", k.value, Value::String(v.value.clone()));
                    let compared = Spanned::new(text, k.range, k.path.clone());
                    self.jq(&compared)
                }
                None => self.jq(k),
            });
            TypeSelectorPlan {
                compares_value: t.value.is_some() && key.is_some(),
                key,
                match_labels: t
                    .match_labels
                    .iter()
                    .flatten()
                    .map(|(k, v)| (k.value.clone(), v.value.clone()))
                    .collect(),
            }
        });
        PodSelectorPlan {
            type_selector,
            instance_id: sel
                .component_instance_selector
                .as_ref()
                .and_then(|s| s.id_path.as_ref())
                .map(|e| self.jq(e)),
            replica_key: sel
                .replica_selector
                .as_ref()
                .and_then(|s| s.key_path.as_ref())
                .map(|e| self.jq(e)),
        }
    }

    fn status(&mut self, s: &StatusDefinition) -> StatusPlan {
        let phase = s
            .phase_definition
            .as_ref()
            .and_then(|p| p.path.as_ref())
            .map(|e| self.jq(e));
        let conditions = s.conditions_definition.as_ref().and_then(|c| {
            let path = self.jq(c.path.as_ref()?);
            Some(ConditionsPlan {
                path,
                type_field: c.type_field_name.clone(),
                status_field: c.status_field_name.clone(),
                message_field: c.message_field_name.clone(),
                reason_field: c.reason_field_name.clone(),
            })
        });
        let mut mappings = Vec::new();
        for m in &s.status_mappings {
            let matchers = m
                .matchers
                .iter()
                .map(|matcher| MatcherPlan {
                    range: Some(matcher.location.range),
                    by_phase: non_empty(&matcher.by_phase),
                    by_conditions: matcher
                        .by_conditions
                        .iter()
                        .map(|c| ConditionPlan {
                            condition_type: c
                                .condition_type
                                .as_ref()
                                .map(|t| t.value.clone())
                                .unwrap_or_default(),
                            status: non_empty(&c.status),
                            reason: non_empty(&c.reason),
                        })
                        .collect(),
                    by_expression: matcher.by_expression.as_ref().and_then(|b| {
                        let e = b.expression.as_ref()?;
                        let expr = self.expr(b.language, e);
                        if b.language == Language::Cel {
                            self.diagnostics.push(
                                Diagnostic::info(
                                    codes::CEL_NOT_PORTABLE,
                                    "this expression is CEL, a workload-map extension: upstream \
                                     consumers (kli, KAI Scheduler) cannot read this definition",
                                )
                                .with_path(e.path.clone())
                                .with_range(e.range)
                                .with_help("use jq for definitions that upstream tools must read"),
                            );
                        }
                        Some(ExpressionPlan {
                            expr,
                            expected: b
                                .expected_result
                                .as_ref()
                                .map(|r| r.value.clone())
                                .unwrap_or_default(),
                            language: b.language,
                        })
                    }),
                })
                .collect();
            mappings.push((m.phase, matchers));
        }
        StatusPlan {
            phase,
            conditions,
            mappings,
        }
    }

    /// Gang scheduling instructions: group keys and filters are evaluated on pods.
    fn gang(&mut self, def: &Definition, all: &[&ComponentDefinition]) -> Option<GangPlan> {
        let gang = def
            .instructions
            .as_ref()
            .and_then(|i| i.gang_scheduling.as_ref())?;
        let index = |name: &str| all.iter().position(|c| c.name_str() == name);
        let text = |s: &Option<Spanned<String>>| s.as_ref().map(|s| s.value.clone());
        let pod_groups = gang
            .pod_groups
            .iter()
            .map(|group| AlphaGroupPlan {
                name: text(&group.name).unwrap_or_default(),
                members: group
                    .members
                    .iter()
                    .map(|m| {
                        let component_name = text(&m.component_name).unwrap_or_default();
                        MemberPlan {
                            component: index(&component_name),
                            component_name,
                            group_by: m.group_by_key_paths.iter().map(|e| self.jq(e)).collect(),
                            filters: m.filters.iter().map(|e| self.jq(e)).collect(),
                        }
                    })
                    .collect(),
            })
            .collect();
        let topology = |t: &Option<definition::Topology>| {
            t.as_ref().map(|t| crate::view::TopologyView {
                topology_name: text(&t.topology_name).unwrap_or_default(),
                preferred_topology_level: text(&t.preferred_topology_level).unwrap_or_default(),
                required_topology_level: text(&t.required_topology_level).unwrap_or_default(),
            })
        };
        let pod_group = gang.pod_group.as_ref().map(|g| PodGroupPlan {
            name: text(&g.name).unwrap_or_default(),
            sub_groups: g
                .sub_groups
                .iter()
                .map(|s| {
                    let name = text(&s.component_name).unwrap_or_default();
                    let at = index(&name);
                    (name, at, topology(&s.topology))
                })
                .collect(),
            topology: topology(&g.topology),
        });
        Some(GangPlan {
            pod_groups,
            pod_group,
        })
    }

    fn jq(&mut self, e: &Expr) -> CompiledExpr {
        self.expr(Language::Jq, e)
    }

    fn expr(&mut self, language: Language, e: &Expr) -> CompiledExpr {
        let mut compiled = CompiledExpr {
            id: None,
            source: e.value.clone(),
            path: e.path.clone(),
            range: e.range,
        };
        // Upstream skips empty strings: an empty path is "not set".
        if e.value.trim().is_empty() {
            return compiled;
        }
        match self.exprs.add(language, &e.value) {
            Ok(id) => {
                compiled.id = Some(id);
                self.added.push((id, e.clone()));
            }
            Err(errors) => {
                let start = expression_start(self.text, e);
                for err in errors {
                    self.diagnostics.push(expr_diagnostic(&err, e, start));
                }
            }
        }
        compiled
    }
}

/// True when following ownerRefs up from `from` reaches `target` (so adding `target` as a
/// child of `from` would close a cycle; validation reports cycles, the tree must not loop).
fn reaches(all: &[&ComponentDefinition], from: usize, target: usize) -> bool {
    let mut current = from;
    for _ in 0..=all.len() {
        if current == target {
            return true;
        }
        let Some(owner) = all.get(current).and_then(|c| c.owner_ref.as_ref()) else {
            return false;
        };
        match all.iter().position(|p| p.name_str() == owner.value) {
            Some(next) => current = next,
            None => return false,
        }
    }
    true
}

fn non_empty(s: &Option<Spanned<String>>) -> Option<String> {
    s.as_ref()
        .map(|s| s.value.clone())
        .filter(|s| !s.is_empty())
}

fn gvk_view(g: &definition::Gvk) -> GvkView {
    let get = |s: &Option<Spanned<String>>| s.as_ref().map(|s| s.value.clone()).unwrap_or_default();
    GvkView {
        group: get(&g.group),
        version: get(&g.version),
        kind: get(&g.kind),
    }
}

/// Where the expression's first character is in the definition text, when the scalar holds
/// it verbatim (plain or simply quoted); otherwise `None` and diagnostics point at the scalar.
pub(crate) fn expression_start(text: &str, e: &Expr) -> Option<u32> {
    let (start, end) = (e.range.start as usize, e.range.end as usize);
    let raw = text.get(start..end)?;
    if raw == e.value {
        return Some(e.range.start);
    }
    let quoted = raw.len() >= 2 && (raw.starts_with('"') || raw.starts_with('\''));
    if quoted && raw.get(1..raw.len() - 1) == Some(e.value.as_str()) {
        return Some(e.range.start + 1);
    }
    // A block scalar or an escaped string: find a single-line expression verbatim.
    if !e.value.contains('\n') {
        if let Some(at) = raw.find(e.value.as_str()) {
            return u32::try_from(start + at).ok();
        }
    }
    None
}

fn expr_diagnostic(err: &ExprError, e: &Expr, start: Option<u32>) -> Diagnostic {
    let range = match (err.range, start) {
        (Some(r), Some(s)) => r.shift(s),
        _ => e.range,
    };
    let severity = Severity::Error;
    let mut d = Diagnostic::new(err.code, severity, err.message.clone())
        .with_path(e.path.clone())
        .with_range(range);
    d.help = match err.code {
        codes::EXPR_FORBIDDEN => Some(
            "definitions may only read: upstream forbids del, .., range, paths, recurse, walk, \
             repeat and assignment operators"
                .to_owned(),
        ),
        codes::EXPR_COMPILE => {
            Some("check the function name and its number of arguments".to_owned())
        }
        _ => None,
    };
    d
}

impl Compiler<'_> {
    /// Compiles `path(...)` for every path an edit may write through: the root's suspend and
    /// resume actions and every component's pod spec paths (the same one the reader
    /// resolves: the first of template, pod spec, fragmented).
    fn write_plans(&mut self, def: &Definition, components: usize) -> WritePlans {
        let all: Vec<&ComponentDefinition> = def.components().collect();
        if components == 0 {
            return WritePlans::default();
        }
        let specs = all
            .iter()
            .take(components)
            .map(|c| match &c.spec_definition {
                None => SpecWrite::None,
                Some(s) => {
                    if let Some(e) = &s.pod_template_spec_path {
                        SpecWrite::Template(self.write_path(e))
                    } else if let Some(e) = &s.pod_spec_path {
                        SpecWrite::PodSpec(self.write_path(e))
                    } else if let Some(f) = &s.fragmented {
                        SpecWrite::Fragmented(
                            f.paths()
                                .into_iter()
                                .map(|(k, e)| (k, self.write_path(e)))
                                .collect(),
                        )
                    } else {
                        SpecWrite::None
                    }
                }
            })
            .collect();
        let suspend = all
            .first()
            .and_then(|root| root.suspend_definition.as_ref())
            .map(|sd| {
                (
                    self.actions(&sd.suspend_actions),
                    self.actions(&sd.resume_actions),
                )
            });
        WritePlans { suspend, specs }
    }

    fn actions(&mut self, actions: &[definition::SuspendAction]) -> Vec<ActionPlan> {
        actions
            .iter()
            .map(|a| ActionPlan {
                path: a.path.as_ref().map(|p| self.write_path(p)),
                value: match &a.value {
                    Some(v) => crate::definition::decode_action_value(&v.value),
                    None => Err("the action has no value".to_owned()),
                },
                value_at: a.value.as_ref().map_or_else(
                    || (a.location.path.clone(), a.location.range),
                    |v| (v.path.clone(), v.range),
                ),
            })
            .collect()
    }

    /// Prepares the location of every per-instance path of every component (instance ids,
    /// replica counts, pod template or spec) in the object, and tells each component which
    /// paths are its own (see [`crate::provenance`]). Plain paths are walked natively; a
    /// component with none has its other path expressions compiled into one jq expression
    /// (a jq `path()` costs about as much as the read itself, so it is spent only where
    /// nothing cheaper locates the instances); expressions that are not path expressions are
    /// left out (they locate nothing).
    fn locate_plans(
        &mut self,
        def: &Definition,
        components: &mut [ComponentPlan],
    ) -> crate::provenance::LocateSet {
        use crate::provenance::{plain_path, LocatePath};
        let mut paths: Vec<LocatePath> = Vec::new();
        let mut by_jq: Vec<String> = Vec::new();
        for (plan, c) in components.iter_mut().zip(def.components()) {
            let counts: [Option<&Expr>; 3] = match &c.scale_definition {
                Some(s) => [
                    s.replicas_path.as_ref(),
                    s.min_replicas_path.as_ref(),
                    s.max_replicas_path.as_ref(),
                ],
                None => [None; 3],
            };
            let id_fields = usize::from(c.instance_id_path.is_some());
            let fields: Vec<&Expr> = c
                .instance_id_path
                .iter()
                .chain(counts.iter().flatten().copied())
                .collect();
            let parts: Vec<&Expr> = match &c.spec_definition {
                None => Vec::new(),
                Some(s) => match (&s.pod_template_spec_path, &s.pod_spec_path, &s.fragmented) {
                    (Some(e), _, _) | (None, Some(e), _) => vec![e],
                    (None, None, Some(f)) => f.paths().into_iter().map(|(_, e)| e).collect(),
                    (None, None, None) => Vec::new(),
                },
            };
            // Each path with its plain steps, when it is a plain path.
            let classify = |list: Vec<&Expr>| -> Vec<(String, Option<Vec<crate::path::Step>>)> {
                list.into_iter()
                    .map(|e| {
                        let text = e.value.trim();
                        (text.to_owned(), plain_path(text))
                    })
                    .collect()
            };
            let (fields, parts) = (classify(fields), classify(parts));
            let any_plain = fields.iter().chain(&parts).any(|(_, p)| p.is_some());
            let mut take =
                |(text, plain): &(String, Option<Vec<crate::path::Step>>)| -> Option<usize> {
                    if let Some(segs) = plain {
                        paths.push(LocatePath::Plain(segs.clone()));
                    } else {
                        let lenient = crate::definition::writable::Defaults::Lenient;
                        if any_plain
                            || text.is_empty()
                            || crate::definition::writable::check(text, lenient).is_err()
                        {
                            return None;
                        }
                        by_jq.push(text.clone());
                        paths.push(LocatePath::Jq(by_jq.len() - 1));
                    }
                    Some(paths.len() - 1)
                };
            // Each field's path index (`None`: it locates nothing), then the counts' among them.
            let field_paths: Vec<Option<usize>> = fields.iter().map(&mut take).collect();
            let mut count_paths = [None; 3];
            let mut next = id_fields;
            for (slot, count) in count_paths.iter_mut().zip(&counts) {
                if count.is_some() {
                    *slot = field_paths.get(next).copied().flatten();
                    next += 1;
                }
            }
            plan.locate = crate::provenance::LocatePlan {
                fields: field_paths.into_iter().flatten().collect(),
                parts: parts.iter().filter_map(&mut take).collect(),
                counts: count_paths,
            };
        }
        let jq = if by_jq.is_empty() {
            None
        } else {
            let text = crate::provenance::locate_expression(&by_jq);
            self.exprs.add(Language::Jq, &text).ok()
        };
        crate::provenance::LocateSet { paths, jq }
    }

    fn write_path(&mut self, e: &Expr) -> WritePath {
        let mut expr = CompiledExpr {
            id: None,
            source: e.value.clone(),
            path: e.path.clone(),
            range: e.range,
        };
        if e.value.trim().is_empty() {
            return WritePath {
                expr,
                not_writable: None,
            };
        }
        if let Err(why) = crate::definition::writable::check(
            &e.value,
            crate::definition::writable::Defaults::Lenient,
        ) {
            return WritePath {
                expr,
                not_writable: Some(why),
            };
        }
        // On its own lines, so that a trailing `# comment` cannot swallow the parenthesis.
        expr.id = self
            .exprs
            .add(Language::Jq, &format!("path(\n{}\n)", e.value))
            .ok();
        WritePath {
            expr,
            not_writable: None,
        }
    }
}
