import FocusCore
import FocusStorage
import FocusText

extension CalDAVLogin {
    /// The endpoint of the connected account the sync calendar lives in (README, "Two
    /// machines"), with its login.
    package func endpoint(of target: SyncTarget, db: AppDatabase, env: ServiceContext) throws -> CalDAVEndpoint {
        guard let account = try db.accounts().first(where: { $0.id == target.accountID }) else {
            throw FocusError.usage("the account of sync calendar '\(DisplayText(target.name).string)' is no longer connected. Connect it again and run `focus sync setup`.")
        }
        return try endpoint(account, env: env)
    }
}
