// swift-tools-version:6.2
import CompilerPluginSupport
import Foundation
import PackageDescription

/// The running toolchain's SwiftSyntax libraries (the swift-syntax package cannot be fetched here).
let toolchainHost: String = {
  let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
  for folder in path.split(separator: ":") {
    let compiler = URL(fileURLWithPath: String(folder)).appendingPathComponent("swiftc")
    guard FileManager.default.fileExists(atPath: compiler.path) else { continue }
    let host = compiler.resolvingSymlinksInPath().deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("lib/swift/host")
    if FileManager.default.fileExists(atPath: host.path) { return host.path }
  }
  return "/opt/swift/usr/lib/swift/host"
}()

/// Where whisper.cpp and llama.cpp are installed. In a checkout after `make deps`, the build the
/// bootstrap links into `.deps/engines`, found here so that plain `swift build` needs no flags or
/// variables; elsewhere a prefix where the linker and pkg-config look by default, as
/// `make install-engines PREFIX=/usr/local` leaves it.
let packageFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().path
let checkoutEngines = packageFolder + "/.deps/engines"
let enginesInCheckout = FileManager.default.fileExists(atPath: checkoutEngines + "/include/whisper.h")
let enginesPrefix =
  enginesInCheckout
  ? checkoutEngines
  : ["/usr/local", "/usr"].first { FileManager.default.fileExists(atPath: $0 + "/include/llama-common") }
    ?? "/usr/local"

/// Linker flags that point at the checkout's engines (the shim headers find their headers by a
/// relative path); none for a system-wide install.
let engineLinkerFlags: [LinkerSetting] =
  enginesInCheckout
  ? [
    .unsafeFlags(["-L", "\(checkoutEngines)/lib", "-Xlinker", "-rpath", "-Xlinker", "\(checkoutEngines)/lib"]),
    .linkedLibrary("ggml"), .linkedLibrary("ggml-base"),
  ]
  : []

let package = Package(
  name: "VoiceNotes",
  platforms: [.macOS(.v15)],
  products: [
    .library(name: "AudioIO", targets: ["AudioIO"]),
    .library(name: "SpeechRecognition", targets: ["SpeechRecognition"]),
    .library(name: "LanguageModels", targets: ["LanguageModels"]),
    .library(name: "VoiceNotes", targets: ["VoiceNotes"]),
    .library(name: "WebServer", targets: ["WebServer"]),
    .executable(name: "voicenotes", targets: ["voicenotes"]),
  ],
  targets: [
    // C libraries: a module map and a small shim header each, nothing else.
    .systemLibrary(name: "CFFmpeg", path: "Sources/CFFmpeg", pkgConfig: "libavformat"),
    .systemLibrary(name: "CWhisper", path: "Sources/CWhisper", pkgConfig: enginesInCheckout ? nil : "whisper"),
    .systemLibrary(name: "CLlama", path: "Sources/CLlama", pkgConfig: enginesInCheckout ? nil : "llama"),
    .systemLibrary(name: "CSQLite", path: "Sources/CSQLite", pkgConfig: "sqlite3"),
    .systemLibrary(name: "CALSA", path: "Sources/CALSA", pkgConfig: "alsa"),
    .systemLibrary(name: "CEspeak", path: "Sources/CEspeak", pkgConfig: "espeak-ng"),
    .systemLibrary(name: "CMicroHTTPD", path: "Sources/CMicroHTTPD", pkgConfig: "libmicrohttpd"),
    // A small C++ bridge to llama.cpp's JSON-Schema-to-GBNF converter (in its common library).
    .target(
      name: "CLlamaGrammar",
      cxxSettings: [.unsafeFlags(["-I", "\(enginesPrefix)/include/llama-common", "-I", "\(enginesPrefix)/include"])],
      linkerSettings: engineLinkerFlags + [.linkedLibrary("llama-common")]),

    .target(name: "AudioIO", dependencies: ["CFFmpeg", "CALSA"]),
    // Shared by the engine modules: the models folder, PyPI wheel installation, engine threads.
    .target(name: "ModelSupport"),
    .target(
      name: "SpeechRecognition", dependencies: ["AudioIO", "ModelSupport", "CWhisper", "CEspeak"],
      linkerSettings: engineLinkerFlags),
    .macro(
      name: "LanguageModelsMacros",
      swiftSettings: [.unsafeFlags(["-I", toolchainHost])],
      linkerSettings: [.unsafeFlags(["-L", toolchainHost, "-Xlinker", "-rpath", "-Xlinker", toolchainHost])]),
    .target(
      name: "LanguageModels", dependencies: ["ModelSupport", "CLlama", "CLlamaGrammar", "LanguageModelsMacros"],
      linkerSettings: engineLinkerFlags),
    .target(name: "VoiceNotes", dependencies: ["AudioIO", "SpeechRecognition", "LanguageModels", "CSQLite"]),
    // The web app: HTTP over libmicrohttpd, the JSON API and the page's files (HTML, CSS, JS).
    .target(
      name: "WebServer", dependencies: ["VoiceNotes", "SpeechRecognition", "LanguageModels", "AudioIO", "CMicroHTTPD"],
      resources: [.copy("Resources/web")]),
    .executableTarget(
      name: "voicenotes",
      dependencies: ["VoiceNotes", "WebServer", "SpeechRecognition", "LanguageModels", "ModelSupport", "AudioIO"]),

    // Examples: the seed apps, in a terminal.
    .executableTarget(
      name: "TripPlanner", dependencies: ["LanguageModels"], path: "Examples/TripPlanner",
      resources: [.copy("landmarks.json")]),
    .executableTarget(
      name: "CommandRecognizer", dependencies: ["SpeechRecognition", "AudioIO"], path: "Examples/CommandRecognizer"),
    .executableTarget(
      name: "LiveTranscription", dependencies: ["SpeechRecognition", "AudioIO"], path: "Examples/LiveTranscription"),

    // Benchmarks: our side of the side-by-side language-model benchmark (Benchmarks/language).
    .executableTarget(
      name: "LanguageModelBenchmark", dependencies: ["LanguageModels"], path: "Benchmarks/LanguageModelBenchmark"),

    // Benchmarks: our side of the side-by-side live-transcription benchmark (Benchmarks/live).
    .executableTarget(
      name: "LiveBenchmark", dependencies: ["SpeechRecognition", "AudioIO"], path: "Benchmarks/LiveBenchmark"),

    // The app benchmark (make bench): pipeline time per minute of audio, search latency at scale.
    .executableTarget(
      name: "AppBenchmark", dependencies: ["VoiceNotes", "LanguageModels", "SpeechRecognition", "AudioIO"],
      path: "Benchmarks/AppBenchmark"),

    // The custom-language-model benchmark (make bench): commands and vocabulary with and without.
    .executableTarget(
      name: "CustomModelBenchmark", dependencies: ["SpeechRecognition", "AudioIO", "VoiceNotes"],
      path: "Benchmarks/CustomModelBenchmark"),

    // The analysis-quality evaluation (make eval).
    .executableTarget(
      name: "AnalysisEval", dependencies: ["VoiceNotes", "LanguageModels"], path: "Benchmarks/AnalysisEval"),

    // Tests: real engines, real models, real audio. TestSupport finds the fixtures the bootstrap installs.
    .target(name: "TestSupport", dependencies: ["AudioIO"], path: "Tests/TestSupport"),
    .testTarget(name: "AudioIOTests", dependencies: ["AudioIO", "TestSupport"]),
    .testTarget(
      name: "SpeechRecognitionTests", dependencies: ["SpeechRecognition", "AudioIO", "VoiceNotes", "TestSupport"]),
    .testTarget(name: "LanguageModelsTests", dependencies: ["LanguageModels", "TestSupport"]),
    .testTarget(
      name: "VoiceNotesTests",
      dependencies: ["VoiceNotes", "SpeechRecognition", "LanguageModels", "AudioIO", "TestSupport"]),
    .testTarget(name: "voicenotesTests", dependencies: ["VoiceNotes", "AudioIO", "TestSupport"]),
    // Apple's code as its authors wrote it, with only the imports changed, built like a new Xcode 26
    // project (Swift 5 mode, main-actor default isolation), run against the real engines.
    .testTarget(
      name: "PortsTests",
      dependencies: ["SpeechRecognition", "LanguageModels", "AudioIO", "VoiceNotes", "TestSupport"],
      swiftSettings: [
        .swiftLanguageMode(.v5), .defaultIsolation(MainActor.self),
        .enableUpcomingFeature("NonisolatedNonsendingByDefault"), .enableUpcomingFeature("InferIsolatedConformances"),
      ]),
    .testTarget(name: "WebServerTests", dependencies: ["WebServer", "VoiceNotes", "AudioIO", "TestSupport"]),
  ],
  cxxLanguageStandard: .cxx17
)
