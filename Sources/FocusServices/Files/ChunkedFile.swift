import FocusCore
import FocusSystem
import FoundationEssentials

#if canImport(Glibc)
import Glibc
#endif

/// Large files read and written in chunks: an import or export of a million sessions keeps
/// memory flat.
package enum ChunkedFile {
    /// Calls `body` with successive chunks of the file (at most `chunkSize` bytes each).
    /// The file is opened by `InputFile`'s rule: missing or not a regular file 66, unreadable 74.
    package static func read(_ path: String, chunkSize: Int = 1 << 20, _ body: (UnsafeBufferPointer<UInt8>) throws -> Void) throws {
        let fd = try InputFile.open(path)
        defer { close(fd) }
        let buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: chunkSize)
        defer { buffer.deallocate() }
        while true {
            let n = Glibc.read(fd, buffer.baseAddress, chunkSize)
            if n < 0 {
                if errno == EINTR { continue }
                throw InputFile.readFailure(path, errno)
            }
            if n == 0 { return }
            try body(UnsafeBufferPointer(rebasing: buffer[0..<n]))
        }
    }

    /// A small file read whole, at most `limit` bytes: larger is bad input naming `what`
    /// ("the config file"), a read that fails is `.unreadable` (the input-file rule).
    package static func whole(_ path: String, limit: Int, what: String) throws(FocusError) -> Data {
        var data = Data()
        do {
            try read(path) { chunk in
                guard data.count + chunk.count <= limit else {
                    throw FocusError.badInput(file: path, line: nil, reason: "\(what) is larger than \(limit >> 20) MB")
                }
                data.append(contentsOf: chunk)
            }
        } catch let error as FocusError {
            throw error
        } catch {
            throw .unreadable(path: path, reason: String(describing: error))
        }
        return data
    }
}

extension ChunkedFile {
    /// The first `count` bytes of the file (fewer when it is shorter; none when it cannot be
    /// read: `read` reports that properly).
    package static func head(_ path: String, count: Int = 4096) -> [UInt8] {
        guard let fd = try? InputFile.open(path) else { return [] }
        defer { close(fd) }
        var bytes = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let n = bytes.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress! + filled, count - filled) }
            if n < 0, errno == EINTR { continue }
            if n <= 0 { break }
            filled += n
        }
        return Array(bytes[0..<filled])
    }
}
