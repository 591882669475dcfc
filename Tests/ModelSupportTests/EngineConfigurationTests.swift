import Foundation
import ModelSupport
import Testing

@Suite("Engine configuration")
struct EngineConfigurationTests {
  @Test("every variable is read into its setting")
  func readsEveryVariable() {
    let configuration = EngineConfiguration(environment: [
      "HOME": "/home/ada", "VOICENOTES_MODELS": "/m", "VOICENOTES_CACHE": "/c", "VOICENOTES_LIBRARY": "/l",
      "XDG_DATA_HOME": "/d", "VOICENOTES_THREADS": "3", "VOICENOTES_CONTEXT_SIZE": "2048",
      "VOICENOTES_LANGUAGE_MODEL": "modelNotReady", "VOICENOTES_BEAM_SIZE": "1", "VOICENOTES_VAD": "0",
      "VOICENOTES_SEED": "42",
      "VOICENOTES_ENGINE_LOGS": "1", "VOICENOTES_LANGUAGE_MODEL_SERVER": "http://127.0.0.1:8080",
      "VOICENOTES_LANGUAGE_MODEL_SERVER_MODEL": "qwen", "VOICENOTES_TRANSCRIPTION_SERVER": "http://127.0.0.1:9000",
      "VOICENOTES_TRANSCRIPTION_SERVER_API_KEY": "secret",
    ])
    #expect(configuration.modelsFolder?.path == "/m")
    #expect(configuration.cacheFolder.path == "/c")
    #expect(configuration.libraryFolder?.path == "/l")
    #expect(configuration.dataHome.path == "/d")
    #expect(configuration.threads == 3)
    #expect(configuration.contextSize == 2048)
    #expect(configuration.languageModelOverride == .modelNotReady)
    #expect(configuration.languageModelName == nil)
    #expect(
      EngineConfiguration(environment: ["VOICENOTES_LANGUAGE_MODEL": "qwen-0.5b"]).languageModelName == "qwen-0.5b")
    #expect(configuration.beamSize == 1)
    #expect(configuration.samplingSeed == 42)
    #expect(!configuration.usesVoiceActivityDetection)
    #expect(configuration.showsEngineLogs)
    #expect(
      configuration.languageModelServer
        == .init(url: URL(string: "http://127.0.0.1:8080")!, model: "qwen", apiKey: nil))
    #expect(
      configuration.transcriptionServer
        == .init(url: URL(string: "http://127.0.0.1:9000")!, model: nil, apiKey: "secret"))
  }

  @Test("unset and unreadable values take their defaults")
  func defaults() {
    let configuration = EngineConfiguration(environment: [
      "HOME": "/home/ada", "XDG_DATA_HOME": "relative", "VOICENOTES_THREADS": "many",
      "VOICENOTES_LANGUAGE_MODEL": "llama", "VOICENOTES_MODELS": "", "VOICENOTES_SEED": "-1",
    ])
    #expect(configuration.modelsFolder == nil)
    #expect(configuration.cacheFolder.path == "/home/ada/.cache/voicenotes")
    #expect(configuration.dataHome.path == "/home/ada/.local/share")
    #expect(configuration.threads >= 1 && configuration.threads <= 8)
    #expect(configuration.languageModelOverride == nil)
    #expect(configuration.languageModelName == "llama", "a name, which the language models check")
    #expect(configuration.samplingSeed == nil)
    #expect(configuration.usesVoiceActivityDetection)
    #expect(!configuration.showsEngineLogs)
    #expect(configuration.languageModelServer == nil && configuration.transcriptionServer == nil)
  }
}
