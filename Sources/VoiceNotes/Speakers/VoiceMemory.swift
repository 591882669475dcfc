import Foundation
import SpeechRecognition

/// How a note's speakers are recognised among the library's named voices.
public enum VoiceMemory {
  /// The named voice each speaker is, by speaker index: the most similar pairs first, each
  /// voice given to at most one speaker of the note and each speaker at most one voice, and only
  /// pairs at least `threshold` alike. A speaker with no voice close enough stays unnamed.
  public static func matches(
    _ speakers: [NoteSpeaker], voices: [NamedVoice], threshold: Double = SpeakerEmbedding.sameSpeakerThreshold
  ) -> [Int: NamedVoice] {
    var pairs: [(speaker: Int, voice: Int, similarity: Double)] = []
    for speaker in speakers {
      for (offset, voice) in voices.enumerated() {
        let similarity = speaker.embedding.similarity(to: voice.embedding)
        if similarity >= threshold { pairs.append((speaker.index, offset, similarity)) }
      }
    }
    pairs.sort { ($0.similarity, -$0.speaker, -$0.voice) > ($1.similarity, -$1.speaker, -$1.voice) }
    var result: [Int: NamedVoice] = [:]
    var taken = Set<Int>()
    for pair in pairs where result[pair.speaker] == nil && !taken.contains(pair.voice) {
      result[pair.speaker] = voices[pair.voice]
      taken.insert(pair.voice)
    }
    return result
  }

  /// `speakers` with the voices they are recognised as; speakers the person has confirmed keep
  /// what they said.
  public static func recognise(_ speakers: [NoteSpeaker], among voices: [NamedVoice]) -> [NoteSpeaker] {
    let open = speakers.filter { !$0.isConfirmed }
    let claimed = Set(speakers.filter(\.isConfirmed).compactMap(\.voiceID))
    let found = matches(open, voices: voices.filter { !claimed.contains($0.id) })
    return speakers.map { speaker in
      guard !speaker.isConfirmed else { return speaker }
      var speaker = speaker
      speaker.voiceID = found[speaker.index]?.id
      speaker.name = found[speaker.index]?.name
      return speaker
    }
  }

  /// The voice pooled from the speakers confirmed as it, weighted by their seconds of speech.
  static func pooled(_ speakers: [NoteSpeaker]) -> SpeakerEmbedding? {
    SpeakerEmbedding.mean(speakers.map(\.embedding), weights: speakers.map { max($0.duration, 0.1) })
  }
}
