import FocusCore
import FocusStorage

extension PlanPublisher {
    /// `publishAll` with the endpoints `login` gives (never a prompt: publishing follows a
    /// change, in a command or the daemon).
    package static func publishAll(env: ServiceContext, db: AppDatabase, login: CalDAVLogin, endpoints: [Int64: CalDAVEndpoint] = [:],
                                   onlyWhenChanged: Bool = false) -> [PublishReport] {
        publishAll(env: env, db: db, endpoint: { try login.endpoint($0, env: env) }, endpoints: endpoints,
                   onlyWhenChanged: onlyWhenChanged)
    }
}
