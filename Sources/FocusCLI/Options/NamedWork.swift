import FocusCore
import FocusStorage

/// The opening of every command that acts on one task or subtask named by a path: the database,
/// the path resolved (`Thesis/Ch` → `#12`), its full name for messages, and the rows it names.
struct NamedWork {
    let db: AppDatabase
    let catalog: TaskCatalog
    let target: PathTarget
    /// `Thesis/Chapter 2`, as stored (not as typed).
    let shown: String

    /// Resolves `path` (a unique prefix is enough unless `whole`, for commands that delete).
    static func open(_ path: String, in env: FocusEnvironment, whole: Bool = false) throws(FocusError) -> NamedWork {
        let db = try env.openDatabase()
        let catalog = try db.catalog()
        let target = whole ? try catalog.resolveWhole(path) : try catalog.resolve(path)
        return NamedWork(db: db, catalog: catalog, target: target, shown: catalog.path(of: target))
    }

    /// The same work, or when it names a series of recurring work, its current instance
    /// (`SeriesTarget`), shown by the instance's own name.
    func instance(env: FocusEnvironment, reopening: Bool = false) throws(FocusError) -> NamedWork {
        let target = try SeriesTarget.resolve(self.target, shown: shown, db: db, env: env, reopening: reopening)
        guard target != self.target else { return self }
        let catalog = try db.catalog()
        return NamedWork(db: db, catalog: catalog, target: target, shown: catalog.path(of: target))
    }

    /// The task it names (for a subtask path, its task).
    func task() throws(FocusError) -> FocusTask {
        guard let task = try db.task(id: target.taskID) else { throw FocusError.notFound(path: shown, suggestions: []) }
        return task
    }

    /// The subtask it names; nil for a task path.
    func subtask() throws(FocusError) -> Subtask? {
        guard let id = target.subtaskID else { return nil }
        guard let subtask = try db.subtask(id: id) else { throw FocusError.notFound(path: shown, suggestions: []) }
        return subtask
    }
}
