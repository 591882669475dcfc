import AudioIO
import Foundation
import ModelSupport

/// The speech fed when no `--input` is given: the five LibriVox utterances of Debian's
/// pocketsphinx-testdata and jfk.wav, with 1.5 s of silence before, between and after them
/// (about 46 s). Benchmarks/live/bench.py builds the same passage.
enum DefaultPassage {
  /// Silence around each recording, in seconds.
  static let pause = 1.5

  /// Writes the passage to a WAV file in `folder` and returns its location.
  static func write(in folder: URL) throws -> URL {
    let librivox = URL(fileURLWithPath: "/usr/share/pocketsphinx/test/data/librivox")
    guard let listing = try? String(contentsOf: librivox.appendingPathComponent("transcription"), encoding: .utf8)
    else {
      throw BenchmarkError("\(librivox.path) is missing: install Debian's pocketsphinx-testdata (make deps)")
    }
    var files = listing.split(separator: "\n").compactMap { line -> URL? in
      guard let open = line.lastIndex(of: "("), let close = line.lastIndex(of: ")") else { return nil }
      return librivox.appendingPathComponent("\(line[line.index(after: open)..<close]).wav")
    }
    files.append(try jfk())
    let gap = [Float](repeating: 0, count: Int(pause * AudioFormat.speechAnalysis.sampleRate))
    var samples = gap
    for file in files {
      samples += try AudioFile(forReading: file).read(format: .speechAnalysis).samples
      samples += gap
    }
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let url = folder.appendingPathComponent("live-passage.wav")
    try WAVWriter.write(AudioBuffer(format: .speechAnalysis, samples: samples), to: url)
    return url
  }

  /// jfk.wav as the bootstrap installs it: in the checkout this program was built in, else beside
  /// the models folder (`.deps/models` and `.deps/testdata`), else under the current folder.
  static func jfk() throws -> URL {
    let candidates = [
      EngineHost.checkoutFolder(".deps/testdata/jfk.wav"),
      ModelDirectory.current.url.deletingLastPathComponent().appendingPathComponent("testdata/jfk.wav"),
      URL(fileURLWithPath: ".deps/testdata/jfk.wav"),
    ]
    guard let found = candidates.compactMap({ $0 }).first(where: { FileManager.default.fileExists(atPath: $0.path) })
    else {
      throw BenchmarkError(".deps/testdata/jfk.wav is missing: run make deps, or give --input")
    }
    return found
  }
}
