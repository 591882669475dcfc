import Foundation

/// Every setting the engines, their backends and the app read from the environment, read here and
/// nowhere else, so a newcomer finds each knob in one file and tests can build a configuration
/// from a dictionary instead of changing the process's environment.
///
/// | variable | setting |
/// |---|---|
/// | `VOICENOTES_MODELS` | ``modelsFolder`` |
/// | `VOICENOTES_CACHE` | ``cacheFolder`` |
/// | `VOICENOTES_LIBRARY` | ``libraryFolder`` |
/// | `VOICENOTES_THREADS` | ``threads`` |
/// | `VOICENOTES_CONTEXT_SIZE` | ``contextSize`` |
/// | `VOICENOTES_LANGUAGE_MODEL` | ``languageModelOverride``, or else ``languageModelName`` |
/// | `VOICENOTES_BEAM_SIZE` | ``beamSize`` |
/// | `VOICENOTES_SEED` | ``samplingSeed`` |
/// | `VOICENOTES_VAD` (`0` turns it off) | ``usesVoiceActivityDetection`` |
/// | `VOICENOTES_FIT_AUDIO_CONTEXT` (`1` turns it on) | ``fitsAudioContext`` |
/// | `VOICENOTES_ENGINE_LOGS` (any value) | ``showsEngineLogs`` |
/// | `XDG_DATA_HOME`, `HOME` | ``dataHome`` |
/// | `VOICENOTES_LANGUAGE_MODEL_SERVER`, `…_MODEL`, `…_API_KEY` | ``languageModelServer`` |
/// | `VOICENOTES_TRANSCRIPTION_SERVER`, `…_MODEL`, `…_API_KEY` | ``transcriptionServer`` |
public struct EngineConfiguration: Sendable, Equatable {
  /// An OpenAI-compatible server: its base URL (ending before `/v1`), the model to ask for, and
  /// an optional API key sent as a bearer token.
  public struct ServerEndpoint: Sendable, Hashable, Codable {
    /// The server's base URL, such as `http://127.0.0.1:8080`.
    public var url: URL
    /// The model name sent with each request, or nil to send the server's default.
    public var model: String?
    /// The key sent as `Authorization: Bearer …`, or nil.
    public var apiKey: String?

    /// A server at `url`, asked for `model`, with `apiKey`.
    public init(url: URL, model: String? = nil, apiKey: String? = nil) {
      self.url = url
      self.model = model
      self.apiKey = apiKey
    }
  }

  /// A forced availability for the language model, for trying an app's unavailable states.
  public enum LanguageModelOverride: String, Sendable, Equatable {
    /// Language model features are turned off (`off` or `appleIntelligenceNotEnabled`).
    case off
    /// The machine is treated as unable to run the model.
    case deviceNotEligible
    /// The model is treated as not installed.
    case modelNotReady
  }

  /// The models folder named by the environment, or nil to use the checkout's or the user's.
  public var modelsFolder: URL?
  /// The download cache shared by every checkout on the machine.
  public var cacheFolder: URL
  /// Where the language model's saved prompt states are kept (`prompt-states` in ``cacheFolder``).
  public var promptStateFolder: URL { cacheFolder.appendingPathComponent("prompt-states", isDirectory: true) }
  /// The library folder named by the environment, or nil for the default one.
  public var libraryFolder: URL?
  /// The folder user data lives under (`$XDG_DATA_HOME`, else `~/.local/share`).
  public var dataHome: URL
  /// CPU threads an engine uses.
  public var threads: Int
  /// Tokens a language-model session holds, when the environment sets it.
  public var contextSize: Int?
  /// A forced availability for the language model, or nil for its real availability.
  public var languageModelOverride: LanguageModelOverride?
  /// The local language model to run in place of the default (`qwen-0.5b` on a slow machine),
  /// as `VOICENOTES_LANGUAGE_MODEL` names it when it is not an override; nil for the default.
  /// The language-model library checks the name, so a mistyped one is an error, not the default.
  public var languageModelName: String?
  /// Whisper's beam width for every segment, when the environment sets it (1: greedy); unset,
  /// files are decoded greedily and only the segments Whisper was unsure of with a beam of 5
  /// (speech that fits one 30 s window with the beam at once).
  public var beamSize: Int?
  /// The seed of random sampling when a request names none, so that runs repeat (tests,
  /// evaluations); nil draws a new seed for each response.
  public var samplingSeed: UInt64?
  /// Whether silence is removed by voice-activity detection before decoding.
  public var usesVoiceActivityDetection: Bool
  /// Whether a file with less than 30 s of speech is encoded in a window fitted to it instead of
  /// Whisper's full 30 s (faster, but one more word wrong on the LibriVox utterances; off unless set).
  public var fitsAudioContext: Bool
  /// Whether the engines' own log lines reach stderr.
  public var showsEngineLogs: Bool
  /// The server that answers language-model requests instead of the local engine, or nil.
  public var languageModelServer: ServerEndpoint?
  /// The server that transcribes files instead of the local engine, or nil.
  public var transcriptionServer: ServerEndpoint?

  /// The configuration `environment` describes; unset or unreadable values take their defaults.
  public init(environment: [String: String]) {
    func folder(_ name: String) -> URL? {
      guard let path = environment[name], !path.isEmpty else { return nil }
      return URL(fileURLWithPath: path, isDirectory: true)
    }
    let home = folder("HOME") ?? FileManager.default.homeDirectoryForCurrentUser
    modelsFolder = folder("VOICENOTES_MODELS")
    cacheFolder = folder("VOICENOTES_CACHE") ?? home.appendingPathComponent(".cache/voicenotes", isDirectory: true)
    libraryFolder = folder("VOICENOTES_LIBRARY")
    if let dataHome = environment["XDG_DATA_HOME"], dataHome.hasPrefix("/") {
      self.dataHome = URL(fileURLWithPath: dataHome, isDirectory: true)
    } else {
      dataHome = home.appendingPathComponent(".local/share", isDirectory: true)
    }
    threads =
      environment["VOICENOTES_THREADS"].flatMap(Int.init).map { max($0, 1) }
      ?? min(max(ProcessInfo.processInfo.activeProcessorCount, 1), 8)
    contextSize = environment["VOICENOTES_CONTEXT_SIZE"].flatMap(Int.init)
    let languageModel = environment["VOICENOTES_LANGUAGE_MODEL"]?.trimmingCharacters(in: .whitespaces)
    languageModelOverride =
      switch languageModel {
      case "off", "appleIntelligenceNotEnabled": .off
      case "deviceNotEligible": .deviceNotEligible
      case "modelNotReady": .modelNotReady
      default: nil
      }
    languageModelName = languageModelOverride == nil && languageModel?.isEmpty == false ? languageModel : nil
    beamSize = environment["VOICENOTES_BEAM_SIZE"].flatMap(Int.init).map { max($0, 1) }
    samplingSeed = environment["VOICENOTES_SEED"].flatMap(UInt64.init)
    usesVoiceActivityDetection = environment["VOICENOTES_VAD"] != "0"
    fitsAudioContext = environment["VOICENOTES_FIT_AUDIO_CONTEXT"] == "1"
    showsEngineLogs = environment["VOICENOTES_ENGINE_LOGS"] != nil
    func server(_ prefix: String) -> ServerEndpoint? {
      guard let text = environment[prefix], !text.isEmpty, let url = URL(string: text) else { return nil }
      return ServerEndpoint(
        url: url, model: environment[prefix + "_MODEL"].flatMap { $0.isEmpty ? nil : $0 },
        apiKey: environment[prefix + "_API_KEY"].flatMap { $0.isEmpty ? nil : $0 })
    }
    languageModelServer = server("VOICENOTES_LANGUAGE_MODEL_SERVER")
    transcriptionServer = server("VOICENOTES_TRANSCRIPTION_SERVER")
  }

  /// The configuration of this process, read from its environment now.
  public static var current: EngineConfiguration {
    EngineConfiguration(environment: ProcessInfo.processInfo.environment)
  }
}
