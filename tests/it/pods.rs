//! Pod attribution and placement, data-driven: every `tests/fixtures/pods/*.yaml` case resolves
//! an object with its `related` objects (pods and owners, one list as kubectl returns them)
//! through an inline `definition` or the `catalog` definition it names, and checks the
//! `expect:` block (`tests/README.md`).

use crate::common;

#[test]
fn every_pods_fixture_gives_its_expected_view() {
    common::check_fixture_folder("pods", 5, common::run_related_case);
}
