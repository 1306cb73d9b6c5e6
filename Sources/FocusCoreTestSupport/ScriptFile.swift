import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Writes a script a test will run, through a descriptor that is close-on-exec: a process that
/// another test starts meanwhile must not inherit it open for writing, or running the script
/// fails with ETXTBSY (execve(2)) for as long as that process lives.
package enum ScriptFile {
    package static func write(_ text: String, to path: String, mode: mode_t = 0o755) throws {
        let temporary = path + ".writing"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode)
        guard fd >= 0 else { throw NSError(domain: NSPOSIXErrorDomain, code: Int(errno)) }
        let bytes = Array(text.utf8)
        let written = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
        close(fd)
        guard written == bytes.count else { throw NSError(domain: NSPOSIXErrorDomain, code: Int(EIO)) }
        chmod(temporary, mode)
        guard rename(temporary, path) == 0 else { throw NSError(domain: NSPOSIXErrorDomain, code: Int(errno)) }
    }
}
