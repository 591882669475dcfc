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

/// Where whisper.cpp and llama.cpp are: in a checkout after `make deps`, the build the bootstrap
/// links into `.deps/engines`; elsewhere where the compiler and the linker look by default
/// (`make install-engines` puts them in /usr/local). Both are always named, so the manifest does
/// not depend on what exists when SwiftPM evaluates (and caches) it: the shim headers pick the
/// checkout's headers when they are there, the linker searches the checkout's folder first.
let checkoutEngines = URL(fileURLWithPath: #filePath).deletingLastPathComponent().path + "/.deps/engines"

/// Header folders of llama.cpp's common library, for the grammar bridge.
let llamaCommonHeaders = [checkoutEngines, "/usr/local", "/usr"].flatMap {
  ["-I", "\($0)/include/llama-common", "-I", "\($0)/include"]
}

/// The engines' libraries: the checkout's folder searched first, and found again at run time.
let engineLinkerFlags: [LinkerSetting] = [
  .unsafeFlags(["-L", "\(checkoutEngines)/lib", "-Xlinker", "-rpath", "-Xlinker", "\(checkoutEngines)/lib"]),
  .linkedLibrary("ggml"), .linkedLibrary("ggml-base"),
]

/// sherpa-onnx's C API and ONNX Runtime (speaker diarization): in a checkout, the bootstrap's
/// `.deps/sherpa-onnx` (unpacked from the sherpa-onnx-core wheel), searched first and found again
/// at run time; elsewhere where the linker looks.
let checkoutSherpaOnnx = URL(fileURLWithPath: #filePath).deletingLastPathComponent().path + "/.deps/sherpa-onnx"
let sherpaOnnxLinkerFlags: [LinkerSetting] = [
  .unsafeFlags(["-L", "\(checkoutSherpaOnnx)/lib", "-Xlinker", "-rpath", "-Xlinker", "\(checkoutSherpaOnnx)/lib"])
]

let package = Package(
  name: "VoiceNotes",
  platforms: [.macOS(.v15)],
  products: [
    .library(name: "AudioIO", targets: ["AudioIO"]),
    .library(name: "SpeechRecognition", targets: ["SpeechRecognition"]),
    .library(name: "LanguageModels", targets: ["LanguageModels"]),
    .library(name: "VoiceNotes", targets: ["VoiceNotes"]),
    .library(name: "WebServer", targets: ["WebServer"]),
    .library(name: "Networking", targets: ["Networking"]),
    .library(name: "CommandLineParsing", targets: ["CommandLineParsing"]),
    .executable(name: "voicenotes", targets: ["voicenotes"]),
  ],
  targets: [
    // C libraries: a module map and a small shim header each, nothing else.
    .systemLibrary(name: "CFFmpeg", path: "Sources/CFFmpeg", pkgConfig: "libavformat"),
    .systemLibrary(name: "CWhisper", path: "Sources/CWhisper"),
    .systemLibrary(name: "CLlama", path: "Sources/CLlama"),
    .systemLibrary(name: "CGGML", path: "Sources/CGGML"),
    .systemLibrary(name: "CSherpaOnnx", path: "Sources/CSherpaOnnx"),
    .systemLibrary(name: "CSQLite", path: "Sources/CSQLite", pkgConfig: "sqlite3"),
    .systemLibrary(name: "CALSA", path: "Sources/CALSA", pkgConfig: "alsa"),
    .systemLibrary(name: "CEspeak", path: "Sources/CEspeak", pkgConfig: "espeak-ng"),
    .systemLibrary(name: "CMicroHTTPD", path: "Sources/CMicroHTTPD", pkgConfig: "libmicrohttpd"),
    .systemLibrary(name: "CCurl", path: "Sources/CCurl", pkgConfig: "libcurl"),
    // A small C++ bridge to llama.cpp's JSON-Schema-to-GBNF converter (in its common library).
    .target(
      name: "CLlamaGrammar",
      cxxSettings: [.unsafeFlags(llamaCommonHeaders)],
      linkerSettings: engineLinkerFlags + [.linkedLibrary("llama-common")]),

    .target(name: "AudioIO", dependencies: ["CFFmpeg", "CALSA"]),
    // Shared by the engine modules: the models folder, PyPI wheel installation, engine threads,
    // ggml's CPU backend.
    .target(name: "ModelSupport", dependencies: ["CGGML"], linkerSettings: engineLinkerFlags),
    .target(
      name: "SpeechRecognition",
      dependencies: ["AudioIO", "ModelSupport", "Networking", "CWhisper", "CEspeak", "CSherpaOnnx"],
      linkerSettings: engineLinkerFlags + sherpaOnnxLinkerFlags),
    .macro(
      name: "LanguageModelsMacros",
      swiftSettings: [.unsafeFlags(["-I", toolchainHost])],
      linkerSettings: [.unsafeFlags(["-L", toolchainHost, "-Xlinker", "-rpath", "-Xlinker", toolchainHost])]),
    .target(
      name: "LanguageModels",
      dependencies: ["ModelSupport", "Networking", "CLlama", "CLlamaGrammar", "LanguageModelsMacros"],
      linkerSettings: engineLinkerFlags),
    .target(
      name: "VoiceNotes", dependencies: ["AudioIO", "ModelSupport", "SpeechRecognition", "LanguageModels", "CSQLite"]),
    // The web app: HTTP over libmicrohttpd, the JSON API and the page's files (HTML, CSS, JS).
    .target(
      name: "WebServer",
      dependencies: ["VoiceNotes", "SpeechRecognition", "LanguageModels", "ModelSupport", "AudioIO", "CMicroHTTPD"],
      resources: [.copy("Resources/web")]),
    // Outbound HTTP over libcurl (whole, streamed and server-sent-event responses), for the
    // backends over OpenAI-compatible servers.
    .target(name: "Networking", dependencies: ["CCurl"]),
    // The command line's declarations and parser (options, flags, arguments), apart from any command.
    .target(name: "CommandLineParsing"),
    .executableTarget(
      name: "voicenotes",
      dependencies: [
        "VoiceNotes", "WebServer", "SpeechRecognition", "LanguageModels", "ModelSupport", "AudioIO",
        "CommandLineParsing",
      ]),

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

    // The speaker benchmark (make bench): diarization error rate, seconds per minute of audio and
    // the added cost over plain transcription.
    .executableTarget(
      name: "SpeakerBenchmark", dependencies: ["SpeechRecognition", "AudioIO", "VoiceNotes", "TestSupport"],
      path: "Benchmarks/SpeakerBenchmark"),

    // The embedding benchmark (make bench): sentence embeddings per second, batched and one at a
    // time, against the converter's numpy forward pass.
    .executableTarget(
      name: "EmbeddingBenchmark", dependencies: ["LanguageModels"], path: "Benchmarks/EmbeddingBenchmark"),

    // The analysis-quality evaluation (make eval).
    .executableTarget(
      name: "AnalysisEval", dependencies: ["VoiceNotes", "LanguageModels"], path: "Benchmarks/AnalysisEval"),
    // The ask-your-notes evaluation (make eval): retrieval recall, answers, citations, abstention.
    .executableTarget(
      name: "AskEval", dependencies: ["VoiceNotes", "LanguageModels"], path: "Benchmarks/AskEval",
      exclude: ["ask-dev.jsonl", "ask-later.jsonl"]),

    // Tests: real engines, real models, real audio. TestSupport finds the fixtures the bootstrap installs.
    .target(
      name: "TestSupport", dependencies: ["AudioIO", "ModelSupport", "Networking", "SpeechRecognition"],
      path: "Tests/TestSupport"),
    .testTarget(name: "AudioIOTests", dependencies: ["AudioIO", "TestSupport"]),
    .testTarget(
      name: "SpeechRecognitionTests",
      dependencies: ["SpeechRecognition", "AudioIO", "VoiceNotes", "Networking", "TestSupport"]),
    .testTarget(name: "LanguageModelsTests", dependencies: ["LanguageModels", "TestSupport"]),
    .testTarget(name: "ModelSupportTests", dependencies: ["ModelSupport"]),
    .testTarget(
      name: "VoiceNotesTests",
      dependencies: ["VoiceNotes", "SpeechRecognition", "LanguageModels", "AudioIO", "TestSupport"]),
    .testTarget(name: "voicenotesTests", dependencies: ["VoiceNotes", "AudioIO", "TestSupport"], exclude: ["Help"]),
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
    // The HTTP client against the real reference servers (llama-server, whisper-server) and
    // loopback sockets that refuse, stall or drop.
    .testTarget(name: "NetworkingTests", dependencies: ["Networking", "TestSupport"]),
  ],
  cxxLanguageStandard: .cxx17
)

// The libFuzzer target (Fuzz/, run by scripts/fuzz.sh), only when VOICENOTES_FUZZ=1: it and the
// Swift modules it tests are built with -sanitize=fuzzer,address (coverage counters, AddressSanitizer,
// libFuzzer), which a normal build must not get. The flags go on those targets here rather than
// through -Xswiftc, which would reach the macro plugin too (a host tool that then fails to link).
if ProcessInfo.processInfo.environment["VOICENOTES_FUZZ"] == "1" {
  let sanitizers = "-sanitize=fuzzer,address"
  let instrumented: Set = [
    "AudioIO", "ModelSupport", "SpeechRecognition", "LanguageModels", "VoiceNotes", "WebServer", "CommandLineParsing",
  ]
  for target in package.targets where instrumented.contains(target.name) {
    target.swiftSettings = (target.swiftSettings ?? []) + [.unsafeFlags([sanitizers])]
  }
  package.targets += [
    // libFuzzer's driver function, declared for Swift (SwiftPM's entry point replaces libFuzzer's main).
    .systemLibrary(name: "CLibFuzzer", path: "Fuzz/CLibFuzzer"),
    // gold cannot link this binary (an internal error reading its debug information); lld can.
    .executableTarget(
      name: "VoiceNotesFuzz",
      dependencies: [
        "AudioIO", "SpeechRecognition", "LanguageModels", "VoiceNotes", "WebServer", "CommandLineParsing",
        "CLibFuzzer",
      ],
      path: "Fuzz/Targets",
      swiftSettings: [.unsafeFlags([sanitizers])],
      linkerSettings: [.unsafeFlags([sanitizers, "-use-ld=lld"])]),
  ]
}
