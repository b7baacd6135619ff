import Foundation
import PhotosStore
import Testing

@testable import PhotosPostgres

struct PostgresLocationTests {
    private func location(_ string: String) throws(StoreError) -> PostgresLocation {
        try PostgresLocation(url: URL(string: string)!)
    }

    private func refusal(_ string: String) -> String? {
        do {
            _ = try location(string)
            return nil
        } catch {
            guard case .notALibrary(_, let reason) = error else { return "unexpected \(error)" }
            return reason
        }
    }

    @Test func aTCPURLNamesHostPortDatabaseLibraryAndTLS() throws {
        let location = try location("postgres://photos@db.example.org:6543/catalogue?library=family&sslmode=verify-full")
        #expect(location.endpoint == .tcp(host: "db.example.org", port: 6543))
        #expect(location.user == "photos")
        #expect(location.database == "catalogue")
        #expect(location.library == "family")
        #expect(location.tlsMode == .verifyFull)
        #expect(location.schema == "photos_family")
        #expect(try self.location("postgresql://u@h/d?library=x").tlsMode == .prefer)
        #expect(try self.location("postgresql://u@h/d?library=x").endpoint == .tcp(host: "h", port: 5432))
    }

    @Test func aSocketURLNamesTheSocketFile() throws {
        let location = try location("postgres://postgres@/postgres?host=/run/postgresql&library=home")
        #expect(location.endpoint == .unixSocket(path: "/run/postgresql/.s.PGSQL.5432"))
        #expect(
            try self.location("postgres://postgres@/postgres?host=/tmp/pg&port=5433&library=home").endpoint
                == .unixSocket(path: "/tmp/pg/.s.PGSQL.5433"))
    }

    @Test func itsURLReadsBackAsTheSameLocation() throws {
        for string in [
            "postgres://photos@db.example.org:6543/catalogue?library=family&sslmode=verify-full",
            "postgres://postgres@/postgres?host=/tmp/pg&port=5433&library=home",
            "postgres://a@b/c?library=d&sslmode=require&sslrootcert=/etc/ca.pem",
        ] {
            let location = try location(string)
            #expect(try PostgresLocation(url: location.url) == location, "\(location.url)")
        }
    }

    @Test func aPasswordInTheURLIsRefusedWithoutBeingRepeated() throws {
        do {
            _ = try location("postgres://photos:hunter2@db/catalogue?library=family")
            Issue.record("a password in the URL was taken")
        } catch {
            #expect(!error.description.contains("hunter2"))
            #expect(error.description.contains("PHOTOS_POSTGRES_PASSWORD"))
        }
    }

    @Test func whatIsMissingOrMalformedIsNamed() {
        #expect(refusal("postgres://db/catalogue?library=x")?.contains("no user") == true)
        #expect(refusal("postgres://u@db?library=x")?.contains("no database") == true)
        #expect(refusal("postgres://u@db/catalogue")?.contains("no library") == true)
        #expect(refusal("postgres://u@/catalogue?library=x")?.contains("no host") == true)
        #expect(refusal("postgres://u@db/catalogue?library=x&sslmode=maybe")?.contains("sslmode maybe") == true)
        #expect(refusal("postgres://u@db/catalogue?library=x&search_path=evil")?.contains("unknown parameter search_path") == true)
        #expect(refusal("postgres://u@db/catalogue?library=x&library=y")?.contains("twice") == true)
        #expect(refusal("postgres://u@db/catalogue?library=x&host=relative")?.contains("absolute path") == true)
        #expect(refusal("postgres://u@db/catalogue?library=x&port=99999")?.contains("port") == true)
        #expect(refusal("mysql://u@db/catalogue?library=x")?.contains("postgres://") == true)
    }

    @Test(arguments: ["Family", "1st", "a-b", "a;drop schema public", "../etc", "a\"b", "", String(repeating: "a", count: 49)])
    func aLibraryNameIsDataNeverSQL(name: String) {
        let encoded = name.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? name
        #expect(refusal("postgres://u@db/c?library=\(encoded)") != nil)
    }

    @Test func credentialsComeFromTheEnvironmentInOrder() throws {
        let location = try location("postgres://u@db/c?library=x")
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("pw-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data("from-file\nignored\n".utf8).write(to: file)
        #expect(try PostgresCredentials.password(for: location, environment: [:]) == nil)
        #expect(try PostgresCredentials.password(for: location, environment: ["PGPASSWORD": "libpq"]) == "libpq")
        #expect(
            try PostgresCredentials.password(for: location, environment: ["PGPASSWORD": "libpq", "PHOTOS_POSTGRES_PASSWORD_FILE": file.path]) == "from-file")
        #expect(
            try PostgresCredentials.password(
                for: location,
                environment: [
                    "PHOTOS_POSTGRES_PASSWORD": "direct",
                    "PHOTOS_POSTGRES_PASSWORD_FILE": file.path,
                ]) == "direct")
        #expect(try PostgresCredentials.password(for: location, environment: ["PHOTOS_POSTGRES_PASSWORD": "", "PGPASSWORD": "libpq"]) == "libpq")
        #expect(throws: StoreError.self) {
            try PostgresCredentials.password(for: location, environment: ["PHOTOS_POSTGRES_PASSWORD_FILE": file.path + ".missing"])
        }
    }
}
