import Foundation

/// Paths to the real audio and models the tests use, and helpers to make more audio.
///
/// Everything here comes from the bootstrap (`make deps`): Debian's pocketsphinx-testdata,
/// jfk.wav from the whisper.cpp sources, the converted models in `.deps/models`.
public enum Fixtures {
  /// The checkout this test build belongs to.
  public static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

  /// The models folder the bootstrap fills.
  public static var models: URL {
    if let path = ProcessInfo.processInfo.environment["VOICENOTES_MODELS"] { return URL(fileURLWithPath: path) }
    return root.appendingPathComponent(".deps/models")
  }

  /// The built `voicenotes` program (made by `swift build --build-tests`).
  public static let program = product("voicenotes")

  /// An executable of this package from the same build as the running tests (so a build with any
  /// `--scratch-path` works), else from `.build/debug`.
  public static func product(_ name: String) -> URL {
    if let folder = Bundle.main.executableURL?.resolvingSymlinksInPath().deletingLastPathComponent() {
      let sibling = folder.appendingPathComponent(name)
      if FileManager.default.isExecutableFile(atPath: sibling.path) { return sibling }
    }
    return root.appendingPathComponent(".build/debug/\(name)")
  }

  /// 11 s of John F. Kennedy's inaugural address.
  public static let jfk = root.appendingPathComponent(".deps/testdata/jfk.wav")
  /// What jfk.wav says.
  public static let jfkText =
    "And so my fellow Americans, ask not what your country can do for you, ask what you can do for your country."

  /// Five LibriVox utterances (24.7 s) with their reference transcripts.
  public static var librivox: [(audio: URL, reference: String)] {
    let folder = URL(fileURLWithPath: "/usr/share/pocketsphinx/test/data/librivox")
    guard let text = try? String(contentsOf: folder.appendingPathComponent("transcription"), encoding: .utf8) else {
      return []
    }
    return text.split(separator: "\n").compactMap { line in
      guard let open = line.lastIndex(of: "("), let close = line.lastIndex(of: ")") else { return nil }
      let id = line[line.index(after: open)..<close]
      let words = line[..<open].replacingOccurrences(of: "<s>", with: "").replacingOccurrences(of: "</s>", with: "")
      return (folder.appendingPathComponent("\(id).wav"), words.trimmingCharacters(in: .whitespaces))
    }
  }

  /// A fresh temporary folder, removed by the caller when done.
  public static func temporaryFolder(_ name: String = "test") -> URL {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "voicenotes-\(name)-\(UUID().uuidString.prefix(8))", isDirectory: true)
    try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    return folder
  }

  /// Encodes `source` with ffmpeg using `arguments` (codec, rate, channels) into `destination`.
  public static func encode(_ source: URL, to destination: URL, _ arguments: [String]) throws {
    try run(["ffmpeg", "-loglevel", "error", "-y", "-i", source.path] + arguments + [destination.path])
  }

  /// Speaks `text` with espeak-ng into a WAV file.
  public static func speak(_ text: String, voice: String = "en-us", to destination: URL) throws {
    try run(["espeak-ng", "-v", voice, "-w", destination.path, text])
  }

  /// Runs a program and throws when it fails.
  public static func run(_ arguments: [String]) throws {
    let result = try Program.run(arguments)
    guard result.status == 0 else {
      throw NSError(
        domain: "Fixtures", code: Int(result.status),
        userInfo: [NSLocalizedDescriptionKey: "\(arguments[0]) failed: \(result.standardError)"])
    }
  }
}
