import Foundation
import SpeechRecognition

/// A failure the benchmark reports on stderr before exiting with status 2.
struct BenchmarkError: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}

/// The command line: a subcommand and its options.
struct Arguments {
  var command: String
  var input: URL?
  var model: String?
  var referenceModel = "base"
  var reference: URL?
  var bufferMilliseconds = 100
  var warmUp = true
  var output: URL?

  static let usage = """
    usage: LiveBenchmark COMMAND [options]

    Each command prints one JSON object on stdout; progress goes to stderr.
      live       feeds a speech file to SpeechAnalyzer.start(inputSequence:) at real-time pace and
                 measures when each spoken word first appears (volatile) and turns final
      reference  the words of the file and when each ends, from the file path with word times
                 (what `live` measures against)

    Options:
      --input FILE             speech to feed (default: the LibriVox utterances and jfk.wav joined
                               with 1.5 s pauses, written to a temporary file)
      --model NAME             live: tiny.en (default) or base; reference: the model to use
      --reference FILE         a reference made by `reference` (default: made first, in-process)
      --reference-model NAME   the model for a reference made in-process (default base; `reference`
                               uses --model, else this)
      --buffer-ms N            buffer length in milliseconds (default 100)
      --no-warmup              do not decode the first seconds once before the clock starts
      --output FILE            write the JSON there instead of stdout
    Models come from VOICENOTES_MODELS; threads from VOICENOTES_THREADS (default: every core up to 8).
    """

  static func parse(_ arguments: [String]) throws -> Arguments {
    guard let command = arguments.first, !command.hasPrefix("-") else { throw BenchmarkError(usage) }
    var result = Arguments(command: command)
    var rest = arguments.dropFirst()
    func value(_ flag: String) throws -> String {
      guard let value = rest.popFirst() else { throw BenchmarkError("\(flag) needs a value\n\n\(usage)") }
      return value
    }
    while let flag = rest.popFirst() {
      switch flag {
      case "--input": result.input = URL(fileURLWithPath: try value(flag))
      case "--model": result.model = try value(flag)
      case "--reference": result.reference = URL(fileURLWithPath: try value(flag))
      case "--reference-model": result.referenceModel = try value(flag)
      case "--buffer-ms":
        guard let number = Int(try value(flag)), (10...1000).contains(number) else {
          throw BenchmarkError("--buffer-ms needs a whole number of milliseconds from 10 to 1000")
        }
        result.bufferMilliseconds = number
      case "--no-warmup": result.warmUp = false
      case "--output": result.output = URL(fileURLWithPath: try value(flag))
      case "-h", "--help": throw BenchmarkError(usage)
      default: throw BenchmarkError("unknown option \(flag)\n\n\(usage)")
      }
    }
    guard ["live", "reference"].contains(result.command) else {
      throw BenchmarkError("unknown command \(result.command)\n\n\(usage)")
    }
    return result
  }

  /// The installed model called `name`, or an error saying how to install it.
  static func speechModel(_ name: String) throws -> SpeechModel {
    let model: SpeechModel
    do {
      model = try SpeechModel.named(name)
    } catch {
      throw BenchmarkError("unknown model \(name): use tiny.en or base")
    }
    let file = ModelDirectory.current.file(for: model)
    guard FileManager.default.fileExists(atPath: file.path) else {
      throw BenchmarkError("\(file.path) is missing: run `voicenotes models install \(name)` (make models)")
    }
    return model
  }
}

/// A progress line on stderr.
func log(_ message: String) {
  FileHandle.standardError.write(Data("LiveBenchmark: \(message)\n".utf8))
}

/// Writes `value` as one line of JSON to `file`, or to stdout.
func emit(_ value: some Encodable, to file: URL?) throws {
  let encoder = JSONEncoder()
  encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
  encoder.keyEncodingStrategy = .convertToSnakeCase
  let data = try encoder.encode(value) + Data("\n".utf8)
  if let file {
    try data.write(to: file, options: .atomic)
  } else {
    FileHandle.standardOutput.write(data)
  }
}
