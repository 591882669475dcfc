import AudioIO
import Foundation
import SpeechRecognition
import Synchronization
import TestSupport
import Testing
import VoiceNotes

/// espeak-ng voices that differ in variant and pitch, so the embedding model hears three people.
enum SyntheticVoices {
  static let high = ["-v", "en-us+f3", "-p", "80"]
  static let low = ["-v", "en-us+croak", "-p", "30"]
  static let fast = ["-v", "en-us+f2", "-p", "50", "-s", "190"]
}

/// One diarizer (the models loaded once) for every test of the suite.
let sharedDiarizer = Result { try SpeakerDiarizer() }

/// Diarizations already made in this run, by conversation name, so no conversation is diarized twice.
let diarizedConversations = Mutex<[String: SpeakerDiarization]>([:])

/// SpeakerDiarizer on conversations built at test time from real recordings of different people
/// and from espeak-ng voices, scored by diarization error rate with a 0.25 s collar.
@Suite("SpeakerDiarizer", .serialized)
struct SpeakerDiarizerTests {
  func diarizer() throws -> SpeakerDiarizer { try sharedDiarizer.get() }

  /// Diarizes `conversation` without telling the speaker count, and scores it.
  func score(_ conversation: SpeakerConversation) async throws -> (SpeakerDiarization, DiarizationErrorRate) {
    let result = try await diarized(conversation)
    let der = DiarizationErrorRate(reference: conversation.reference, hypothesis: result.turns)
    print(
      String(
        format: "%@ (%.1f s, %d speakers): found %d, DER %@", conversation.name, conversation.duration,
        conversation.speakerCount, result.speakerCount, der.description))
    return (result, der)
  }

  /// `conversation` diarized without a speaker count, once per run.
  func diarized(_ conversation: SpeakerConversation) async throws -> SpeakerDiarization {
    if let done = diarizedConversations.withLock({ $0[conversation.name] }) { return done }
    let result = try await diarizer().diarize(conversation.samples)
    diarizedConversations.withLock { $0[conversation.name] = result }
    return result
  }

  static func syntheticTwo() throws -> SpeakerConversation {
    SpeakerConversation(
      "espeak-ng, 2 voices",
      [
        .init(
          speaker: 0,
          samples: try SpeakerConversation.speak(
            "Good morning, shall we go through the budget for next year before lunch?", SyntheticVoices.high)),
        .init(
          speaker: 1,
          samples: try SpeakerConversation.speak(
            "Yes, I printed the numbers, and the travel costs went up by almost a third.", SyntheticVoices.low)),
        .init(
          speaker: 0,
          samples: try SpeakerConversation.speak(
            "Then we should ask the team to book their trains much earlier.", SyntheticVoices.high)),
        .init(
          speaker: 1,
          samples: try SpeakerConversation.speak(
            "I will write to them this afternoon and copy you in.", SyntheticVoices.low)),
      ])
  }

  static func syntheticThree() throws -> SpeakerConversation {
    SpeakerConversation(
      "espeak-ng, 3 voices",
      [
        .init(
          speaker: 0,
          samples: try SpeakerConversation.speak(
            "Welcome everyone, today we plan the garden for the spring.", SyntheticVoices.high)),
        .init(
          speaker: 1,
          samples: try SpeakerConversation.speak(
            "I would like tomatoes along the southern wall where the sun is strongest.", SyntheticVoices.low)),
        .init(
          speaker: 2,
          samples: try SpeakerConversation.speak(
            "And I can build two raised beds for the herbs and the lettuce.", SyntheticVoices.fast)),
        .init(
          speaker: 0,
          samples: try SpeakerConversation.speak(
            "Good, who will water everything while we are away in August?", SyntheticVoices.high)),
        .init(
          speaker: 1,
          samples: try SpeakerConversation.speak(
            "My neighbour offered to do it if we share the harvest.", SyntheticVoices.low)),
        .init(
          speaker: 2,
          samples: try SpeakerConversation.speak(
            "That sounds fair to me, let us ask her on Sunday.", SyntheticVoices.fast)),
      ])
  }

  @Test(
    "real speakers: DER at most 10% and the speaker count right",
    arguments: ["two", "two, short turns", "three"])
  func realConversations(_ which: String) async throws {
    let conversation =
      switch which {
      case "two": try SpeakerConversation.realTwo()
      case "two, short turns": try SpeakerConversation.realTwoShortTurns()
      default: try SpeakerConversation.realThree()
      }
    #expect((15...40).contains(conversation.duration))
    let (result, der) = try await score(conversation)
    #expect(result.speakerCount == conversation.speakerCount)
    #expect(der.rate <= 0.10, "\(der)")
    #expect(result.speakers.allSatisfy { $0.embedding.values.count == 192 && $0.duration > 0 })
  }

  @Test("espeak-ng voices: the speaker count right and DER at most 10%", arguments: [2, 3])
  func syntheticConversations(_ voices: Int) async throws {
    let conversation = voices == 2 ? try Self.syntheticTwo() : try Self.syntheticThree()
    let (result, der) = try await score(conversation)
    #expect(result.speakerCount == conversation.speakerCount)
    #expect(der.rate <= 0.10, "\(der)")
  }

  @Test("a given speaker count is kept")
  func givenCount() async throws {
    let conversation = try SpeakerConversation.realThree()
    let result = try await diarizer().diarize(conversation.samples, speakerCount: 3)
    #expect(result.speakerCount == 3)
    let der = DiarizationErrorRate(reference: conversation.reference, hypothesis: result.turns)
    #expect(der.rate <= 0.10, "\(der)")
    let two = try await diarizer().diarize(conversation.samples, speakerCount: 2)
    #expect(two.speakerCount == 2)
  }

  @Test("one voice is one speaker")
  func singleSpeaker() async throws {
    let samples = try RealSpeakers.jfk()
    let result = try await diarizer().diarize(samples)
    #expect(result.speakerCount == 1)
    #expect(result.turns.allSatisfy { $0.speaker == 0 })
    #expect(result.turns.reduce(0) { $0 + $1.duration } > 6)
  }

  @Test("the file convenience decodes any format to 16 kHz mono; progress runs from 0 to 1")
  func fileInput() async throws {
    let folder = Fixtures.temporaryFolder("speakers")
    defer { try? FileManager.default.removeItem(at: folder) }
    let conversation = try SpeakerConversation.realTwo()
    let wav = folder.appendingPathComponent("conversation.wav")
    try WAVWriter.write(AudioBuffer(format: .speechAnalysis, samples: conversation.samples), to: wav)
    let ogg = folder.appendingPathComponent("conversation.ogg")
    try Fixtures.encode(wav, to: ogg, ["-ar", "48000", "-ac", "2", "-c:a", "libvorbis"])
    let seen = Mutex<[Double]>([])
    let result = try await diarizer().diarize(contentsOf: ogg) { fraction in seen.withLock { $0.append(fraction) } }
    #expect(result.speakerCount == 2)
    let values = seen.withLock { $0 }
    #expect(values.count >= 3)
    #expect(values.last == 1)
    #expect(zip(values, values.dropFirst()).allSatisfy { $0 <= $1 })
    let der = DiarizationErrorRate(reference: conversation.reference, hypothesis: result.turns)
    #expect(der.rate <= 0.10, "\(der)")
  }

  @Test("voice memory: a speaker's embedding matches another recording of them, not someone else")
  func voiceMemory() async throws {
    let threshold = SpeakerEmbedding.sameSpeakerThreshold
    // Speakers found in one conversation...
    let conversation = try SpeakerConversation.realThree()
    let result = try await diarized(conversation)
    try #require(result.speakerCount == 3)
    // ...against recordings of the same people that are not in it.
    let others: [(speaker: Int, samples: [Float])] = [
      (1, try RealSpeakers.cards("004")), (2, try RealSpeakers.librivox("0880")),
      (1, try RealSpeakers.cards("001")), (2, try RealSpeakers.librivox("0930")),
    ]
    let der = DiarizationErrorRate(reference: conversation.reference, hypothesis: result.turns)
    for other in others {
      let voice = try await diarizer().embedding(of: other.samples)
      let scores = result.speakers.map { voice.similarity(to: $0.embedding) }
      let best = scores.indices.max { scores[$0] < scores[$1] }!
      #expect(der.mapping[best] == other.speaker, "scores \(scores)")
      #expect(scores[best] >= threshold, "scores \(scores)")
      #expect(
        scores.enumerated().filter { $0.offset != best }.allSatisfy { $0.element < threshold }, "scores \(scores)")
    }
    // Kennedy is not in this conversation: no speaker of it is taken for him.
    let twoOthers = try await diarized(try SpeakerConversation.realTwoShortTurns())
    let kennedy = try await diarizer().embedding(of: try RealSpeakers.jfk())
    #expect(twoOthers.speakers.allSatisfy { kennedy.similarity(to: $0.embedding) < threshold })
  }

  @Test("the same-speaker threshold separates espeak-ng development voices")
  func thresholdOnDevelopmentVoices() async throws {
    // Sentences used nowhere else in the tests.
    let sentences = [
      "The quick brown fox jumps over the lazy dog while the farmer watches from the porch.",
      "Yesterday we went to the market to buy some apples, bread and cheese for the picnic.",
    ]
    var embeddings: [(voice: Int, embedding: SpeakerEmbedding)] = []
    for (voice, arguments) in [SyntheticVoices.high, SyntheticVoices.low, SyntheticVoices.fast].enumerated() {
      for sentence in sentences {
        embeddings.append(
          (voice, try await diarizer().embedding(of: try SpeakerConversation.speak(sentence, arguments))))
      }
    }
    for (left, a) in embeddings.enumerated() {
      for b in embeddings[(left + 1)...] {
        let similarity = a.embedding.similarity(to: b.embedding)
        if a.voice == b.voice {
          #expect(similarity >= SpeakerEmbedding.sameSpeakerThreshold, "voice \(a.voice): \(similarity)")
        } else {
          #expect(similarity < SpeakerEmbedding.sameSpeakerThreshold, "voices \(a.voice), \(b.voice): \(similarity)")
        }
      }
    }
  }

  @Test("too little audio for a voice is an error, not a made-up embedding")
  func tooShort() async throws {
    await #expect(throws: SpeakerDiarizationError.self) {
      _ = try await diarizer().embedding(of: try RealSpeakers.jfk().prefix(4_000).map { $0 })
    }
  }

  @Test("a missing model is an error naming where it looked")
  func missingModel() throws {
    let folder = Fixtures.temporaryFolder("no-models")
    defer { try? FileManager.default.removeItem(at: folder) }
    #expect(
      throws: SpeakerDiarizationError.modelNotInstalled(
        model: "speakers", folder: folder.appendingPathComponent("speakers").path)
    ) {
      _ = try SpeakerDiarizer(directory: ModelDirectory(url: folder))
    }
    let message =
      SpeakerDiarizationError.modelNotInstalled(model: "speakers", folder: "/x/speakers").errorDescription ?? ""
    #expect(message.contains("/x/speakers") && message.contains("not installed"))
  }
}
