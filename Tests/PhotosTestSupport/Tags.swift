import Testing

extension Tag {
    /// Suites that take seconds each (processes started, crashes, large
    /// generated inputs). `script/test-fast` runs the rest, the fast set,
    /// in under a minute.
    @Tag public static var slow: Self
}
