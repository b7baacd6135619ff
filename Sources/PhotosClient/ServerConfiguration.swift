import OpenAPIRuntime

extension Configuration {
    /// How `photos serve` writes JSON: dates as ISO 8601 with milliseconds
    /// (`2024-05-01T12:00:00.250Z`), which the runtime's default transcoder,
    /// without fractional seconds, refuses. Pass it to every ``Client``.
    public static var photosServer: Configuration {
        Configuration(dateTranscoder: .iso8601WithFractionalSeconds)
    }
}
