//! Gang-scheduling groups, data-driven: every `tests/fixtures/groups/*.yaml` case resolves an
//! object (with `related` pods when given) through an inline `definition` or the `catalog`
//! definition it names, and checks `expect.groups` and the diagnostics (`tests/README.md`).
//! The cases include upstream's stated test facts for `CalculateSubtreeScale`.

use crate::common;

#[test]
fn every_groups_fixture_gives_its_expected_view() {
    common::check_fixture_folder("groups", 5, common::run_related_case);
}
