import Foundation
import ModelSupport

/// The saved KV state of a prompt prefix on disk, so that a new process restores it instead of
/// evaluating the prefix again.
///
/// The file's name is a hash of its key: the model file's identity (path, size, modification
/// time), the context size, the exact prefix tokens and the grammar of the request. The file
/// repeats the key's hash and the tokens in its header and ends its header with a checksum of
/// the state bytes, so a file written for another key, a truncated file or a corrupt one is
/// recognised on reading and ignored (the caller evaluates the prefix and writes it again).
/// Writes go to a temporary file beside it that is then renamed over it. The folder keeps the
/// ``capacity`` most recently written files.
struct LlamaStateFile: Sendable {
  /// Where the state is, or will be, saved.
  let url: URL
  /// The hash of the key, repeated in the header.
  let key: UInt64
  /// The prefix tokens whose state the file holds.
  let tokens: [Int32]

  /// How many state files a folder keeps; older ones are removed when a new one is written.
  static let capacity = 8
  /// The format's name and version: 02 since generation runs without flash attention, which
  /// lays the V cache out transposed, so a file of the earlier layout is not restored.
  private static let magic = Array("VNKVST02".utf8)

  /// The state file for `tokens` of the model at `modelPath` in `folder`.
  init(folder: URL, modelPath: String, contextSize: Int, tokens: [Int32], grammar: String?) {
    let attributes = try? FileManager.default.attributesOfItem(atPath: modelPath)
    let size = (attributes?[.size] as? NSNumber)?.int64Value ?? -1
    let modified = (attributes?[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
    var hash = Self.Hasher()
    hash.add(Array("\(modelPath)\n\(size)\n\(modified)\n\(contextSize)\n".utf8))
    hash.add(tokens.flatMap { Self.bytes(of: UInt32(bitPattern: $0)) })
    hash.add(Array("\n\(grammar ?? "-")".utf8))
    key = hash.value
    self.tokens = tokens
    url = folder.appendingPathComponent(String(format: "%016llx.kvstate", key))
  }

  /// The saved state bytes, or nil when there is no file or it is not this key's or not intact.
  func read() -> [UInt8]? {
    guard let data = try? Data(contentsOf: url) else { return nil }
    let bytes = [UInt8](data)
    let header = Self.magic.count + 8 + 4 + tokens.count * 4 + 8 + 8
    guard bytes.count >= header, Array(bytes[0..<Self.magic.count]) == Self.magic else { return nil }
    var offset = Self.magic.count
    func next(_ width: Int) -> UInt64 {
      var value: UInt64 = 0
      for index in 0..<width { value |= UInt64(bytes[offset + index]) << (8 * UInt64(index)) }
      offset += width
      return value
    }
    guard next(8) == key, next(4) == UInt64(tokens.count) else { return nil }
    for token in tokens where next(4) != UInt64(UInt32(bitPattern: token)) { return nil }
    let length = next(8)
    let checksum = next(8)
    guard UInt64(bytes.count - offset) == length else { return nil }
    let state = Array(bytes[offset...])
    var hash = Self.Hasher()
    hash.add(state)
    return hash.value == checksum ? state : nil
  }

  /// Writes `state` atomically (a temporary file renamed over the old one), then removes the
  /// oldest files beyond ``capacity``.
  func write(_ state: [UInt8]) throws {
    let folder = url.deletingLastPathComponent()
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    var hash = Self.Hasher()
    hash.add(state)
    var header = Self.magic + Self.bytes(of: key) + Self.bytes(of: UInt32(tokens.count))
    header += tokens.flatMap { Self.bytes(of: UInt32(bitPattern: $0)) }
    header += Self.bytes(of: UInt64(state.count)) + Self.bytes(of: hash.value)
    let partial = folder.appendingPathComponent(".\(url.lastPathComponent).\(UUID().uuidString).partial")
    do {
      try Data(header + state).write(to: partial)
      try FileReplacement.move(partial, over: url)
    } catch {
      try? FileManager.default.removeItem(at: partial)
      throw error
    }
    prune(folder)
  }

  private func prune(_ folder: URL) {
    let files =
      (try? FileManager.default.contentsOfDirectory(
        at: folder, includingPropertiesForKeys: [.contentModificationDateKey]))?.filter {
        $0.pathExtension == "kvstate"
      } ?? []
    guard files.count > Self.capacity else { return }
    let dated = files.map { file in
      (
        file,
        (try? file.resourceValues(forKeys: [.contentModificationDateKey]))?.contentModificationDate ?? .distantPast
      )
    }
    for (file, _) in dated.sorted(by: { $0.1 > $1.1 }).dropFirst(Self.capacity) where file != url {
      try? FileManager.default.removeItem(at: file)
    }
  }

  private static func bytes<T: FixedWidthInteger>(of value: T) -> [UInt8] {
    (0..<T.bitWidth / 8).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
  }

  /// FNV-1a over 64-bit words (and the trailing bytes one by one): fast enough for the tens of
  /// megabytes of a state, and any changed byte changes it.
  private struct Hasher {
    private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325
    private static let prime: UInt64 = 0x0000_0100_0000_01b3

    mutating func add(_ bytes: [UInt8]) {
      bytes.withUnsafeBytes { raw in
        let words = raw.count / 8
        for index in 0..<words {
          value = (value ^ raw.loadUnaligned(fromByteOffset: index * 8, as: UInt64.self)) &* Self.prime
        }
        for index in words * 8..<raw.count { value = (value ^ UInt64(raw[index])) &* Self.prime }
      }
    }
  }
}
