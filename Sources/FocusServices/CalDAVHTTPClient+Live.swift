import FocusCore
import FocusNetwork
import FocusText

extension CalDAVHTTPClient {
    /// Over libcurl, its warnings (hrefs the origin rule ignores) on standard error.
    package static func live(_ env: ServiceContext) -> CalDAVHTTPClient {
        let console = env.console
        return CalDAVHTTPClient(http: CurlHTTPClient(environment: env.environment), warn: { console.note("warning: \($0)") })
    }
}
