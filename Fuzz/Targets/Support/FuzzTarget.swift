import Foundation

/// The code under test, one case per fuzz target; scripts/fuzz.sh selects one with
/// `VOICENOTES_FUZZ_TARGET=<name>`.
enum FuzzTarget: String, CaseIterable {
  case audioFile = "AudioFile"
  case customLanguageModel = "CustomLanguageModel"
  case json = "JSON"
  case schema = "Schema"
  case commandLine = "CommandLine"
  case searchQuery = "SearchQuery"
  case http = "HTTP"

  /// The target named by the environment, read once.
  static let selected: FuzzTarget = {
    let name = ProcessInfo.processInfo.environment["VOICENOTES_FUZZ_TARGET"] ?? ""
    guard let target = FuzzTarget(rawValue: name) else {
      let names = allCases.map(\.rawValue).joined(separator: ", ")
      FileHandle.standardError.write(Data("set VOICENOTES_FUZZ_TARGET to one of: \(names)\n".utf8))
      exit(2)
    }
    return target
  }()

  /// Runs the target on one input.
  func run(_ data: Data) {
    switch self {
    case .audioFile: AudioFileFuzz.run(data)
    case .customLanguageModel: CustomLanguageModelFuzz.run(data)
    case .json: JSONFuzz.run(data)
    case .schema: SchemaFuzz.run(data)
    case .commandLine: CommandLineFuzz.run(data)
    case .searchQuery: SearchQueryFuzz.run(data)
    case .http: HTTPFuzz.run(data)
    }
  }
}
