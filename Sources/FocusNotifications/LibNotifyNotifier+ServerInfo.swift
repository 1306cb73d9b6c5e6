extension LibNotifyNotifier {
    /// What the running notification server says about itself (`GetServerInformation`),
    /// for `focus doctor`.
    package struct ServerInfo: Sendable, Equatable {
        package var name: String
        package var vendor: String
        package var version: String
        /// The Desktop Notifications Specification version the server implements, e.g. "1.2".
        package var specVersion: String

        package init(name: String, vendor: String, version: String, specVersion: String) {
            self.name = name
            self.vendor = vendor
            self.version = version
            self.specVersion = specVersion
        }
    }
}
