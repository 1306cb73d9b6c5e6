/// Named schema migrations, applied once each and in order.
///
/// The names of those applied are kept in the table `grdb_migrations` (one column,
/// `identifier`): the table focus's databases have carried since their first version, so
/// every database made before this module existed goes on from where it was.
package struct DatabaseMigrator: Sendable {
    /// When foreign keys are checked during a migration.
    package enum ForeignKeyChecks: Sendable {
        /// Off while the migration runs, then the whole database is checked before it commits:
        /// what a migration that rebuilds a table needs (https://sqlite.org/lang_altertable.html,
        /// "Making Other Kinds Of Table Schema Changes").
        case deferred
        /// Checked by every statement.
        case immediate
    }

    private var migrations: [(identifier: String, checks: ForeignKeyChecks, body: @Sendable (Database) throws -> Void)] = []

    package init() {}

    package mutating func registerMigration(
        _ identifier: String, foreignKeyChecks: ForeignKeyChecks = .deferred, migrate: @escaping @Sendable (Database) throws -> Void
    ) {
        precondition(!migrations.contains { $0.identifier == identifier }, "migration \(identifier) is registered twice")
        migrations.append((identifier, foreignKeyChecks, migrate))
    }

    /// Applies every migration not yet applied, each in a transaction of its own; with
    /// `last`, only those up to and including the one of that name (tests of old databases).
    package func migrate(_ writer: any DatabaseWriter, upTo last: String? = nil) throws {
        var wanted = migrations[...]
        if let last {
            guard let end = migrations.firstIndex(where: { $0.identifier == last }) else {
                throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "no migration named \(last)")
            }
            wanted = migrations[...end]
        }
        try writer.withConnection { db in
            try db.execute(sql: "CREATE TABLE IF NOT EXISTS grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY)")
            let applied = try Set(String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations"))
            for migration in wanted where !applied.contains(migration.identifier) {
                try apply(migration, db)
            }
        }
    }

    private func apply(_ migration: (identifier: String, checks: ForeignKeyChecks, body: @Sendable (Database) throws -> Void), _ db: Database) throws {
        let relax = migration.checks == .deferred && db.configuration.foreignKeysEnabled
        // The pragma has no effect inside a transaction (https://sqlite.org/foreignkeys.html, section 2).
        if relax { try db.execute(sql: "PRAGMA foreign_keys = OFF") }
        defer { if relax { try? db.execute(sql: "PRAGMA foreign_keys = ON") } }
        try db.inTransaction(.immediate) {
            try migration.body(db)
            if relax, try Row.fetchOne(db, sql: "PRAGMA foreign_key_check") != nil {
                throw DatabaseError(resultCode: .SQLITE_CONSTRAINT_FOREIGNKEY, message: "FOREIGN KEY constraint failed")
            }
            try db.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES (?)", arguments: [migration.identifier])
        }
    }
}
