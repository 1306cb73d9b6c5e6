import FocusCore
import FocusServices
import FocusStorage

extension PlanPublisher {
    /// `publishAll` with the endpoints `login` gives (never a prompt: publishing follows a
    /// change, in a command or the daemon).
    static func publishAll(env: FocusEnvironment, db: AppDatabase, login: CalDAVLogin, endpoints: [Int64: CalDAVEndpoint] = [:],
                           onlyWhenChanged: Bool = false) -> [String] {
        publishAll(env: env.services, db: db, endpoint: { try login.endpoint($0, env: env) }, endpoints: endpoints,
                   onlyWhenChanged: onlyWhenChanged)
    }
}
