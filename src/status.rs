//! Status: the raw phase and conditions, and which shared phases they map to (§3.5).
//!
//! Upstream evaluates statuses in a fixed order and lists every match; the recordings show
//! the matched list in mapping key order (initializing, running, completed, failed, degraded,
//! suspended, suspending, resuming), which is the order we list. A matcher matches when all of
//! its set parts hold, a mapping when any matcher does; an empty matcher matches; nothing
//! matched gives `Undefined`. Unlike upstream, an expression error does not abort the whole
//! status: that matcher does not match and the error is a diagnostic next to it.

use std::collections::HashMap;

use serde_json::Value;

use crate::definition::Phase;
use crate::diagnostic::codes;
use crate::expr::to_jq_string;
use crate::instances::Evaluator;
use crate::plan::{ConditionsPlan, MatcherPlan, StatusPlan};
use crate::view::{Check, Condition, MappingExplanation, MatcherExplanation, StatusView};

/// Evaluates the root's status definition; without `explain`, `mappings` stays empty (the
/// phases are decided the same way).
pub(crate) fn evaluate(
    plan: &StatusPlan,
    ev: &mut Evaluator<'_>,
    explain: bool,
) -> (Vec<Phase>, StatusView) {
    let phase = plan.phase.as_ref().map(|expr| read_phase(expr, ev));
    let conditions = plan
        .conditions
        .as_ref()
        .map(|c| read_conditions(c, ev))
        .unwrap_or_default();
    // Duplicate types: the last one wins, as upstream's map does.
    let by_type: HashMap<&str, &Condition> = conditions
        .iter()
        .map(|c| (c.condition_type.as_str(), c))
        .collect();
    let reads_reason = plan
        .conditions
        .as_ref()
        .is_some_and(|c| c.reason_field.is_some());
    let has_conditions = plan.conditions.is_some();
    let mut context = Context {
        phase: phase.as_deref(),
        by_type,
        reads_reason,
        has_conditions,
    };

    let mut mappings = Vec::with_capacity(if explain { plan.mappings.len() } else { 0 });
    let mut phases = Vec::new();
    for (status, matchers) in &plan.mappings {
        let matchers: Vec<MatcherExplanation> = matchers
            .iter()
            .map(|m| matcher(m, &mut context, ev))
            .collect();
        let matched = matchers.iter().any(|m| m.matched);
        if matched {
            phases.push(*status);
        }
        if explain {
            mappings.push(MappingExplanation {
                status: *status,
                matched,
                matchers,
            });
        }
    }
    phases.sort();
    phases.dedup();
    if phases.is_empty() {
        phases.push(Phase::Undefined);
    }
    (
        phases,
        StatusView {
            phase,
            conditions,
            mappings,
        },
    )
}

struct Context<'c> {
    phase: Option<&'c str>,
    by_type: HashMap<&'c str, &'c Condition>,
    reads_reason: bool,
    has_conditions: bool,
}

fn read_phase(expr: &crate::plan::CompiledExpr, ev: &mut Evaluator<'_>) -> String {
    let Some(values) = ev.eval(expr, "") else {
        return String::new();
    };
    match values.first() {
        None | Some(Value::Null) => String::new(),
        Some(Value::String(s)) => s.clone(),
        Some(other) => {
            ev.diagnostics.push(
                crate::diagnostic::Diagnostic::error(
                    codes::PHASE_NOT_A_STRING,
                    format!(
                        "failed to extract phase: the phase path yielded {}",
                        crate::path::type_name(other, crate::path::Words::Json)
                    ),
                )
                .with_path(expr.path.clone())
                .with_range(expr.range),
            );
            String::new()
        }
    }
}

/// The conditions path may yield one array, several, or null; elements are flattened and
/// read through the definition's field names (non-string values are ignored).
fn read_conditions(plan: &ConditionsPlan, ev: &mut Evaluator<'_>) -> Vec<Condition> {
    let Some(values) = ev.eval(&plan.path, "") else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for value in &values {
        let items: &[Value] = match value {
            Value::Array(items) => items,
            Value::Null => &[],
            other => {
                ev.diagnostics.push(
                    crate::diagnostic::Diagnostic::error(
                        codes::OBJECT_WRONG_SHAPE,
                        format!(
                            "the conditions path must yield arrays of condition objects, got {}",
                            crate::path::type_name(other, crate::path::Words::Json)
                        ),
                    )
                    .with_path(plan.path.path.clone())
                    .with_range(plan.path.range),
                );
                continue;
            }
        };
        for item in items {
            let Value::Object(obj) = item else { continue };
            let text = |field: &str| obj.get(field).and_then(Value::as_str).map(str::to_owned);
            let field = |name: &Option<String>| name.as_deref().and_then(text);
            out.push(Condition {
                condition_type: text(&plan.type_field).unwrap_or_default(),
                status: text(&plan.status_field),
                reason: field(&plan.reason_field),
                message: field(&plan.message_field),
            });
        }
    }
    out
}

fn matcher(m: &MatcherPlan, ctx: &mut Context<'_>, ev: &mut Evaluator<'_>) -> MatcherExplanation {
    let mut checks = Vec::new();
    if let Some(expected) = &m.by_phase {
        let matched = ctx.phase == Some(expected.as_str());
        checks.push(Check::Phase {
            expected: expected.clone(),
            actual: ctx.phase.map(str::to_owned),
            matched,
        });
    }
    for c in &m.by_conditions {
        let found = ctx.by_type.get(c.condition_type.as_str()).copied();
        let actual_status = found.map(|f| f.status.clone().unwrap_or_default());
        let actual_reason = found.map(|f| f.reason.clone().unwrap_or_default());
        let failure = match found {
            None if !ctx.has_conditions => Some("noConditionsDefinition"),
            None => Some("missing"),
            Some(f) => {
                if c.status
                    .as_ref()
                    .is_some_and(|s| Some(s) != f.status.as_ref())
                {
                    Some("statusDiffers")
                } else if let Some(reason) = &c.reason {
                    if !ctx.reads_reason {
                        Some("reasonNotRead")
                    } else if Some(reason) != f.reason.as_ref() {
                        Some("reasonDiffers")
                    } else {
                        None
                    }
                } else {
                    None
                }
            }
        };
        checks.push(Check::Condition {
            condition_type: c.condition_type.clone(),
            expected_status: c.status.clone(),
            expected_reason: c.reason.clone(),
            actual_status,
            actual_reason,
            matched: failure.is_none(),
            failure,
        });
    }
    if let Some(e) = &m.by_expression {
        let (actual, error) = match e.expr.id {
            None => (None, Some("the expression did not compile".to_owned())),
            Some(id) => match ev.exprs.eval(id, ev.input) {
                Ok(values) => (values.first().map(to_jq_string), None),
                Err(err) => {
                    ev.diagnostics.push(
                        crate::diagnostic::Diagnostic::error(
                            err.code,
                            format!("expression '{}' failed: {}", e.expr.source, err.message),
                        )
                        .with_path(e.expr.path.clone())
                        .with_range(e.expr.range),
                    );
                    (None, Some(err.message))
                }
            },
        };
        let matched = actual.as_deref() == Some(e.expected.as_str());
        checks.push(Check::Expression {
            expression: e.expr.source.clone(),
            language: e.language,
            expected: e.expected.clone(),
            actual,
            matched,
            error,
        });
    }
    let matched = checks.iter().all(|c| match c {
        Check::Phase { matched, .. }
        | Check::Condition { matched, .. }
        | Check::Expression { matched, .. } => *matched,
    });
    MatcherExplanation {
        matched,
        checks,
        source: crate::view::DefinitionSource {
            definition: m.range,
        },
    }
}
