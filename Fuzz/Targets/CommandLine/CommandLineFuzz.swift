import CommandLineParsing
import Foundation

/// The command-line parser (``ParsedInput/parse(_:for:commandPath:)``) against declarations shaped
/// like the program's commands.
///
/// The first byte picks the positional arguments (none, required, optional, repeating, two); the
/// rest of the input, split at zero bytes, is the argument list. Parsed input must read back
/// through every declaration without failing except for values that do not convert, and hold the
/// positionals the declaration allows.
enum CommandLineFuzz {
  enum Format: String, CaseIterable {
    case md, json, txt
  }

  static let json = Flag("json", help: "Print JSON.")
  static let verbose = Flag("verbose", short: "v", help: "Say more.")
  static let library = Option("library", short: "l", value: "path", help: "The library folder.")
  static let format = Option<Format>("format", short: "f", value: "format", help: "The output format.")
  static let limit = Option("limit", short: "n", value: "count", help: "At most this many.") {
    (text: String) throws(OptionValueError) -> Int in
    guard let count = Int(text), count > 0 else { throw OptionValueError(message: "use a whole number above 0") }
    return count
  }

  private static let argumentShapes: [[ArgumentSpec]] = [
    [],
    [ArgumentSpec(name: "id", help: "A note's id.")],
    [ArgumentSpec(name: "id", help: "A note's id.", isOptional: true)],
    [ArgumentSpec(name: "query", help: "Words.", isRepeating: true)],
    [ArgumentSpec(name: "id", help: "A note's id."), ArgumentSpec(name: "title", help: "Words.", isRepeating: true)],
  ]

  static func run(_ data: Data) {
    guard let shape = data.first else { return }
    let arguments = argumentShapes[Int(shape) % argumentShapes.count]
    let configuration = CommandConfiguration(
      name: "fuzz", abstract: "A command to fuzz.", arguments: arguments,
      options: [json, verbose, library, format, limit])
    let words = data.dropFirst().split(separator: 0, omittingEmptySubsequences: false).map {
      String(decoding: $0, as: UTF8.self)
    }
    let input: ParsedInput
    do {
      input = try ParsedInput.parse(words, for: configuration, commandPath: "voicenotes fuzz")
    } catch {
      fuzzCheck(!error.description.isEmpty, "an empty usage error")
      return
    }
    _ = input.isSet(json)
    _ = input.isSet(verbose)
    do {
      _ = try input.allValues(library)
      _ = try input.value(format)
    } catch {
      fuzzCheck(false, "a value the parser accepted does not read back: \(error)")
    }
    _ = try? input.value(limit)
    let required = arguments.filter { !$0.isOptional }.count
    fuzzCheck(input.positionals.count >= required, "\(input.positionals.count) positionals, \(required) required")
    if !arguments.contains(where: \.isRepeating) {
      fuzzCheck(input.positionals.count <= arguments.count, "\(input.positionals.count) positionals accepted")
    }
    fuzzCheck(input.positionals.count <= words.count, "more positionals than words")
  }
}
