//! Instances, scale and pod specs of one component (upstream-semantics §3.2-§3.4).
//!
//! Every per-component path is evaluated against the whole object and its results are
//! *zipped* by position with the instance ids. Where upstream fails the whole component (a
//! count mismatch, a replicas value that is not a number), we report a diagnostic next to
//! the component and keep what can be known; what cannot be known (instances, a replica
//! count, a pod spec) is marked unknown, never replaced by a default, so that the totals
//! above it are marked incomplete.

use serde_json::{Map, Value};

use crate::diagnostic::{codes, Diagnostic};
use crate::expr::{ExprSet, Input};
use crate::plan::{CompiledExpr, ComponentPlan, ScalePlan, SpecPlan};

/// One instance of a component as read from the object.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct ExtractedInstance {
    /// `None` for a single-instance component.
    pub id: Option<String>,
    /// The pod spec data: a PodTemplateSpec, a PodSpec, or a fragmented pod spec object,
    /// according to [`PodData`].
    pub pod: Option<PodData>,
    /// The scale read for this instance (`None` when the component has no scale
    /// definition).
    pub scale: Option<Scale>,
    /// Problems with this instance's count values, each with the count it is about (0
    /// `replicas`, 1 `minReplicas`, 2 `maxReplicas`): located in the object by the caller,
    /// which knows where the instance is.
    pub count_problems: Vec<(usize, Diagnostic)>,
}

/// Where the instance's pod data came from.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum PodData {
    /// A PodTemplateSpec (`{metadata, spec}`).
    Template(Value),
    /// A bare PodSpec.
    PodSpec(Value),
    /// A fragmented pod spec (`{containers, container, resources, ...}`).
    Fragmented(Value),
    /// The definition says where the pod spec is, but it could not be read for this
    /// instance (a diagnostic says why): its request is unknown.
    Unreadable,
}

/// One replica count as read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) enum Count {
    /// No path, a null value, or a shorter list than another scale path's.
    #[default]
    Absent,
    /// A count (never negative).
    Known(i64),
    /// The path failed, or gave a value that is not a count (a diagnostic says why).
    Unknown,
}

impl Count {
    /// The value, when known.
    pub fn known(self) -> Option<i64> {
        match self {
            Count::Known(n) => Some(n),
            _ => None,
        }
    }
}

/// Replica counts as read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) struct Scale {
    pub replicas: Count,
    pub min: Count,
    pub max: Count,
}

impl Scale {
    /// Every count unknown (the scale paths gave nothing for this instance).
    const UNKNOWN: Scale = Scale {
        replicas: Count::Unknown,
        min: Count::Unknown,
        max: Count::Unknown,
    };

    /// Desired replicas: replicas, else minReplicas, else 1; `None` when the count that
    /// decides it could not be read.
    pub fn desired(scale: Option<&Scale>) -> Option<u64> {
        let Some(scale) = scale else {
            return Some(1);
        };
        let decided = match scale.replicas {
            Count::Absent => scale.min,
            other => other,
        };
        match decided {
            Count::Absent => Some(1),
            Count::Known(n) => u64::try_from(n).ok(),
            Count::Unknown => None,
        }
    }
}

/// Evaluates a path and reports failures as diagnostics next to the component.
pub(crate) struct Evaluator<'a> {
    pub exprs: &'a ExprSet,
    pub input: &'a Input<'a>,
    pub diagnostics: &'a mut Vec<Diagnostic>,
}

impl Evaluator<'_> {
    /// All results of `expr`, or `None` (with a diagnostic) when it failed or did not compile.
    pub fn eval(&mut self, expr: &CompiledExpr, component: &str) -> Option<Vec<Value>> {
        self.eval_with(expr, component, false)
    }

    /// [`eval`](Self::eval) for counts: a result that is NaN or infinite is the string of
    /// YAML's `.nan`/`±.inf` ([`ExprSet::eval_count`]), not `null` (which reads as absent).
    pub fn eval_count(&mut self, expr: &CompiledExpr, component: &str) -> Option<Vec<Value>> {
        self.eval_with(expr, component, true)
    }

    fn eval_with(
        &mut self,
        expr: &CompiledExpr,
        component: &str,
        count: bool,
    ) -> Option<Vec<Value>> {
        let id = expr.id?;
        let result = if count {
            self.exprs.eval_count(id, self.input)
        } else {
            self.exprs.eval(id, self.input)
        };
        match result {
            Ok(values) => Some(values),
            Err(err) => {
                let subject = if component.is_empty() {
                    String::new()
                } else {
                    format!("{component}: ")
                };
                self.diagnostics.push(
                    Diagnostic::error(
                        err.code,
                        format!(
                            "{subject}expression '{}' failed: {}",
                            expr.source, err.message
                        ),
                    )
                    .with_path(expr.path.clone())
                    .with_range(expr.range),
                );
                None
            }
        }
    }

    fn report(&mut self, code: &'static str, message: String, expr: &CompiledExpr) {
        self.diagnostics.push(
            Diagnostic::error(code, message)
                .with_path(expr.path.clone())
                .with_range(expr.range),
        );
    }
}

/// Reads the instances of `plan` from the object; `None` when they could not be read (a
/// diagnostic says why), so nothing about the component's own pods is known.
pub(crate) fn extract(
    plan: &ComponentPlan,
    ev: &mut Evaluator<'_>,
) -> Option<Vec<ExtractedInstance>> {
    let label = plan.name.as_str();
    let ids: Vec<Option<String>> = match &plan.instance_ids {
        None => vec![None],
        Some(expr) => instance_ids(expr, label, ev)?
            .into_iter()
            .map(Some)
            .collect(),
    };
    let pods = pod_data(&plan.spec, ids.len(), label, ev);
    let (scales, count_problems) = match plan.scale.as_ref() {
        Some(s) => {
            let (scales, problems) = scales(s, ids.len(), label, ev);
            (Some(scales), problems)
        }
        None => (None, Vec::new()),
    };
    // A value past the instances (a count mismatch, reported) belongs to none of them.
    let (count_problems, past): (Vec<_>, Vec<_>) = count_problems
        .into_iter()
        .partition(|(_, i, _)| *i < ids.len());
    ev.diagnostics.extend(past.into_iter().map(|(_, _, d)| d));
    let has_spec = !matches!(plan.spec, SpecPlan::None);
    let instances = ids
        .into_iter()
        .enumerate()
        .map(|(i, id)| ExtractedInstance {
            count_problems: count_problems
                .iter()
                .filter(|(_, at, _)| *at == i)
                .map(|(which, _, d)| (*which, d.clone()))
                .collect(),
            id,
            pod: match pods.as_ref().and_then(|p| p.get(i).cloned().flatten()) {
                Some(pod) => Some(pod),
                None => has_spec.then_some(PodData::Unreadable),
            },
            scale: scales
                .as_ref()
                .map(|s| s.get(i).copied().flatten().unwrap_or(Scale::UNKNOWN)),
        })
        .collect();
    Some(instances)
}

/// `instanceIdPath`: strings (null counts as empty), none of them empty.
fn instance_ids(expr: &CompiledExpr, label: &str, ev: &mut Evaluator<'_>) -> Option<Vec<String>> {
    let values = ev.eval(expr, label)?;
    let mut ids = Vec::with_capacity(values.len());
    for (i, v) in values.iter().enumerate() {
        match v {
            Value::String(s) => ids.push(s.clone()),
            Value::Null => ids.push(String::new()),
            other => {
                ev.report(
                    codes::OBJECT_WRONG_SHAPE,
                    format!(
                        "{label}: failed to convert object at index {i} to type string: \
                         instance id is {}",
                        crate::path::type_name(other, crate::path::Words::Json)
                    ),
                    expr,
                );
                return None;
            }
        }
    }
    if ids.iter().any(String::is_empty) {
        ev.report(
            codes::EMPTY_INSTANCE_ID,
            format!(
                "{label}: instance id path contained empty string values [{}]",
                ids.join(",")
            ),
            expr,
        );
        return None;
    }
    Some(ids)
}

/// Positional zip: results must match the instance count (upstream fails otherwise; we keep
/// the positions that exist and report the mismatch).
fn zip_check(
    count: usize,
    results: usize,
    expr: &CompiledExpr,
    label: &str,
    ev: &mut Evaluator<'_>,
) {
    if count != results {
        ev.report(
            codes::INSTANCE_COUNT_MISMATCH,
            format!(
                "{label}: instance ids count ({count}) does not match results count ({results})"
            ),
            expr,
        );
    }
}

fn pod_data(
    spec: &SpecPlan,
    count: usize,
    label: &str,
    ev: &mut Evaluator<'_>,
) -> Option<Vec<Option<PodData>>> {
    match spec {
        SpecPlan::None => None,
        SpecPlan::Template(expr) => {
            single_path(expr, count, label, ev).map(|v| map_some(v, PodData::Template))
        }
        SpecPlan::PodSpec(expr) => {
            single_path(expr, count, label, ev).map(|v| map_some(v, PodData::PodSpec))
        }
        SpecPlan::Fragmented(paths) => fragmented(paths, count, label, ev),
    }
}

fn map_some(values: Vec<Option<Value>>, f: fn(Value) -> PodData) -> Vec<Option<PodData>> {
    values.into_iter().map(|v| v.map(f)).collect()
}

/// A path yielding one object per instance: null becomes an empty object (upstream decodes
/// null into a zero struct), a non-object is a diagnostic.
fn single_path(
    expr: &CompiledExpr,
    count: usize,
    label: &str,
    ev: &mut Evaluator<'_>,
) -> Option<Vec<Option<Value>>> {
    let values = ev.eval(expr, label)?;
    zip_check(count, values.len(), expr, label, ev);
    let mut out = Vec::with_capacity(count);
    let mut values = values.into_iter();
    for i in 0..count {
        out.push(match values.next() {
            None => None,
            Some(Value::Null) => Some(Value::Object(Map::new())),
            Some(v @ Value::Object(_)) => Some(v),
            Some(other) => {
                ev.report(
                    codes::OBJECT_WRONG_SHAPE,
                    format!(
                        "{label}: expected an object at index {i}, got {}",
                        crate::path::type_name(&other, crate::path::Words::Json)
                    ),
                    expr,
                );
                None
            }
        });
    }
    Some(out)
}

/// Fragmented specs: each sub-path independently; the instance count is the longest list,
/// missing positions are zero values; the result is zipped with the ids.
fn fragmented(
    paths: &[(&'static str, CompiledExpr)],
    count: usize,
    label: &str,
    ev: &mut Evaluator<'_>,
) -> Option<Vec<Option<PodData>>> {
    let mut columns: Vec<(&'static str, Vec<Value>)> = Vec::new();
    let mut longest = 0;
    let mut any_ok = false;
    for (field, expr) in paths {
        if let Some(values) = ev.eval(expr, label) {
            any_ok = true;
            longest = longest.max(values.len());
            columns.push((field, values));
        }
    }
    if !any_ok {
        return None;
    }
    if let Some((_, first)) = paths.first() {
        if longest != count {
            zip_check(count, longest, first, label, ev);
        }
    }
    let rows = (0..count)
        .map(|i| {
            if i >= longest {
                return None;
            }
            let mut obj = Map::new();
            for (field, values) in &mut columns {
                if let Some(v) = values.get_mut(i) {
                    if !v.is_null() {
                        obj.insert((*field).to_owned(), std::mem::take(v));
                    }
                }
            }
            Some(PodData::Fragmented(Value::Object(obj)))
        })
        .collect();
    Some(rows)
}

/// A problem with a count value: which count (0 `replicas`, 1 `minReplicas`, 2
/// `maxReplicas`), the index of the value, and the problem.
type CountProblem = (usize, usize, Diagnostic);

/// `scaleDefinition`: three independent lists, as long as the longest, then zipped. `None`
/// for an instance past every list (a count mismatch): its counts are unknown.
/// Also returns the problems with count values.
fn scales(
    plan: &ScalePlan,
    count: usize,
    label: &str,
    ev: &mut Evaluator<'_>,
) -> (Vec<Option<Scale>>, Vec<CountProblem>) {
    let mut problems: Vec<CountProblem> = Vec::new();
    // A path that failed gives `None`: every instance's count from it is unknown.
    let mut read =
        |expr: &Option<CompiledExpr>, which: usize, ev: &mut Evaluator<'_>| -> Option<Vec<Count>> {
            let field = ["replicas", "minReplicas", "maxReplicas"][which];
            let Some(expr) = expr.as_ref() else {
                return Some(Vec::new());
            };
            let values = ev.eval_count(expr, label)?;
            let mut out = Vec::with_capacity(values.len());
            // Said of a value of the object; shown in the definition until the caller locates
            // the value in the object.
            let problem = |code, message: String| {
                Diagnostic::error(code, message)
                    .with_path(expr.path.clone())
                    .with_range(expr.range)
            };
            for (i, v) in values.iter().enumerate() {
                match replicas_value(v) {
                    Ok(Some(n)) if n < 0 => {
                        problems.push((
                            which,
                            i,
                            problem(
                                codes::REPLICAS_NEGATIVE,
                                format!(
                                    "{label}: {field} value {n} at index {i} is negative; a count \
                                 of pods is 0 or more (Kubernetes rejects the object)"
                                ),
                            ),
                        ));
                        out.push(Count::Unknown);
                    }
                    Ok(Some(n)) => out.push(Count::Known(n)),
                    Ok(None) => out.push(Count::Absent),
                    Err(message) => {
                        problems.push((
                            which,
                            i,
                            problem(
                                codes::REPLICAS_NOT_A_NUMBER,
                                format!(
                                    "{label}: {field} {}",
                                    message.replace("{i}", &i.to_string())
                                ),
                            ),
                        ));
                        out.push(Count::Unknown);
                    }
                }
            }
            Some(out)
        };
    let replicas = read(&plan.replicas, 0, ev);
    let min = read(&plan.min, 1, ev);
    let max = read(&plan.max, 2, ev);
    let len = |v: &Option<Vec<Count>>| v.as_ref().map_or(0, Vec::len);
    let n = len(&replicas).max(len(&min)).max(len(&max));
    let first = plan
        .replicas
        .as_ref()
        .or(plan.min.as_ref())
        .or(plan.max.as_ref());
    // A path that could not be read (a forbidden function, a failed evaluation: reported) says
    // nothing about the count of results, so only the lists read are checked against the ids.
    let read_any = [
        (&plan.replicas, &replicas),
        (&plan.min, &min),
        (&plan.max, &max),
    ]
    .iter()
    .any(|(expr, values)| expr.is_some() && values.is_some());
    if n != count && read_any {
        if let Some(expr) = first {
            zip_check(count, n, expr, label, ev);
        }
    }
    if first.is_none() {
        return (vec![Some(Scale::default()); count], problems);
    }
    let at = |v: &Option<Vec<Count>>, i: usize| match v {
        None => Count::Unknown,
        Some(v) => v.get(i).copied().unwrap_or_default(),
    };
    let scales = (0..count)
        .map(|i| {
            // Past every list (a count mismatch, reported above) nothing is known.
            (i < n).then(|| Scale {
                replicas: at(&replicas, i),
                min: at(&min, i),
                max: at(&max, i),
            })
        })
        .collect();
    (scales, problems)
}

/// A replicas value: a base-10 int32 string (annotation values), an integral number, or null.
fn replicas_value(v: &Value) -> Result<Option<i64>, String> {
    match v {
        Value::Null => Ok(None),
        // NaN and the infinities: written `.nan`/`±.inf` in YAML, or computed by an expression.
        Value::String(s) if matches!(s.as_str(), ".nan" | ".inf" | "-.inf") => Err(format!(
            "value {s} at index {{i}} is not a number ({})",
            if s == ".nan" { "NaN" } else { "an infinity" }
        )),
        Value::String(s) => s
            .parse::<i32>()
            .map(|n| Some(i64::from(n)))
            .map_err(|_| format!("value {s:?} at index {{i}} is not a number")),
        Value::Number(n) => {
            let as_int = n.as_i64().or_else(|| {
                n.as_f64()
                    .filter(|f| f.fract() == 0.0 && f.abs() <= f64::from(i32::MAX))
                    .map(|f| f as i64)
            });
            match as_int {
                Some(i) if i32::try_from(i).is_ok() => Ok(Some(i)),
                _ => Err(format!("value {n} at index {{i}} is not a 32-bit integer")),
            }
        }
        other => Err(format!(
            "value at index {{i}} is {}, not a number",
            crate::path::type_name(other, crate::path::Words::Json)
        )),
    }
}
