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
        /// Checked by every statement (unless a `.deferred` migration runs in the same
        /// transaction: the pragma cannot change inside one; its end-of-migration check holds).
        case immediate
    }

    private typealias Migration = (identifier: String, checks: ForeignKeyChecks, body: @Sendable (Database) throws -> Void)
    private var migrations: [Migration] = []

    /// How many migrations are registered.
    package var count: Int { migrations.count }

    package init() {}

    package mutating func registerMigration(
        _ identifier: String, foreignKeyChecks: ForeignKeyChecks = .deferred, migrate: @escaping @Sendable (Database) throws -> Void
    ) {
        precondition(!migrations.contains { $0.identifier == identifier }, "migration \(identifier) is registered twice")
        migrations.append((identifier, foreignKeyChecks, migrate))
    }

    /// Applies every migration not yet applied, in order, all in ONE IMMEDIATE transaction; with
    /// `last`, only those up to and including the one of that name (tests of old databases).
    ///
    /// What is applied is read inside that transaction, after the write lock is taken: a second
    /// process migrating the same file at the same moment waits for the first (its busy timeout)
    /// and then finds the work done, instead of applying a migration twice. `check` runs first
    /// in the transaction and says whether to migrate at all (false: nothing to do; a throw: the
    /// file is refused), and `stamp` runs after the last migration, in the same transaction:
    /// the caller's version check and version stamp commit with the schema or not at all.
    package func migrate(
        _ writer: any DatabaseWriter, upTo last: String? = nil,
        check: (Database) throws -> Bool = { _ in true }, stamp: (Database) throws -> Void = { _ in }
    ) throws {
        var wanted = migrations[...]
        if let last {
            guard let end = migrations.firstIndex(where: { $0.identifier == last }) else {
                throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "no migration named \(last)")
            }
            wanted = migrations[...end]
        }
        try writer.withConnection { db in
            guard !db.isInsideTransaction else {
                throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "migrations run in a transaction of their own, not inside another")
            }
            let relax = db.configuration.foreignKeysEnabled && wanted.contains { $0.checks == .deferred }
            // The pragma has no effect inside a transaction (https://sqlite.org/foreignkeys.html, section 2).
            if relax { try db.execute(sql: "PRAGMA foreign_keys = OFF") }
            defer { if relax { try? db.execute(sql: "PRAGMA foreign_keys = ON") } }
            try db.inTransaction(.immediate) {
                guard try check(db) else { return }
                try db.execute(sql: "CREATE TABLE IF NOT EXISTS grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY)")
                let applied = try Set(String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations"))
                for migration in wanted where !applied.contains(migration.identifier) {
                    try apply(migration, db, checkForeignKeys: relax)
                }
                try stamp(db)
            }
        }
    }

    private func apply(_ migration: Migration, _ db: Database, checkForeignKeys: Bool) throws {
        try migration.body(db)
        if checkForeignKeys, try Row.fetchOne(db, sql: "PRAGMA foreign_key_check") != nil {
            throw DatabaseError(
                resultCode: .SQLITE_CONSTRAINT_FOREIGNKEY, message: "FOREIGN KEY constraint failed (migration \(migration.identifier))")
        }
        try db.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES (?)", arguments: [migration.identifier])
    }
}
