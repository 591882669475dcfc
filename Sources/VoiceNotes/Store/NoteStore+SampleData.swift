import Foundation
import LanguageModels

extension NoteStore {
  /// Adds `count` synthetic, fully analysed notes in one transaction: the library for the search
  /// benchmark (100,000 notes of 300 words) and for tests at scale.
  ///
  /// The same `seed` gives the same notes. Text mixes common English words with a long tail of
  /// invented ones, Zipf-like, plus names (some with diacritics: "José", "Zoë") among the people
  /// and in the text; notes are ten minutes apart, starting at `start`.
  ///
  /// - Returns: The identifiers of the notes added, in order.
  @discardableResult
  package func addSampleNotes(
    count: Int, wordsPerNote: Int = 300, seed: UInt64 = 1,
    start: Date = Date(timeIntervalSinceReferenceDate: 700_000_000)
  ) throws -> [String] {
    var generator = SampleNoteGenerator(seed: seed, wordsPerNote: wordsPerNote)
    return try database.transaction {
      var ids: [String] = []
      ids.reserveCapacity(count)
      for index in 0..<count {
        let note = generator.note(createdAt: start.addingTimeInterval(Double(index) * 600))
        try write(note)
        ids.append(note.id)
      }
      return ids
    }
  }
}

/// Deterministic synthetic notes for ``NoteStore/addSampleNotes(count:wordsPerNote:seed:start:)``.
private struct SampleNoteGenerator {
  /// Words that carry no topic, about 40% of speech.
  private static let function = """
    the a to and of in for on with about we it is that this I you so then just be have at but not was \
    will can our my they there
    """.split(separator: " ").map(String.init)
  /// Topic words, the most frequent end of the vocabulary (invented words follow them).
  private static let common = """
    meeting budget call project team review plan report client design draft schedule update email send \
    book flight hotel order invoice price quote launch release test bug fix server data slides notes \
    agenda follow next week friday monday morning afternoon office home garden kitchen groceries milk \
    bread coffee café school dentist doctor car train ticket museum concert birthday gift party dinner \
    lunch recipe run marathon training park weather rain holiday trip paris lisbon berlin contract \
    lawyer bank tax insurance rent landlord repair paint window door phone laptop backup password \
    account website article chapter podcast idea
    """.split(separator: " ").map(String.init)
  private static let names = [
    "Marcus", "José", "Zoë", "Ana", "Björn", "Chloé", "Priya", "Liam", "Noah", "Amélie", "François", "Mia",
    "Oliver", "Sofía", "Kenji", "Aisha", "Mateo", "Élodie", "Lukas", "Nadia", "Tomás", "Grace", "Ines", "Omar",
  ]
  private static let syllables = [
    "ka", "lo", "mi", "ren", "tas", "vo", "qui", "bel", "dor", "fin", "gra", "hu", "jel", "mon", "nar", "pel",
    "ros", "sil", "tor", "ul", "ven", "wis", "xan", "yor", "zel", "bri", "cor", "dra", "ep", "fro",
  ]

  private var state: UInt64
  private let wordsPerNote: Int
  /// Invented words, the long tail of the vocabulary.
  private let rare: [String]

  init(seed: UInt64, wordsPerNote: Int) {
    state = seed
    self.wordsPerNote = wordsPerNote
    var rare: [String] = []
    var generator = SampleNoteGenerator(state: seed ^ 0x9E37_79B9_7F4A_7C15)
    for _ in 0..<5000 {
      rare.append((0..<generator.int(below: 3) + 2).map { _ in Self.syllables[generator.int(below: 30)] }.joined())
    }
    self.rare = rare
  }

  private init(state: UInt64) {
    self.state = state
    wordsPerNote = 0
    rare = []
  }

  /// SplitMix64.
  private mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  private mutating func int(below bound: Int) -> Int { Int(next() % UInt64(bound)) }

  private mutating func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }

  /// A word: a function word, sometimes a name, otherwise a topic word by Zipf's law (the word
  /// of rank r about as likely as 1/r), so a few topic words are in most notes and most are rare.
  private mutating func word() -> String {
    let roll = unit()
    if roll < 0.4 { return Self.function[int(below: Self.function.count)] }
    if roll < 0.415 { return Self.names[int(below: Self.names.count)] }
    let vocabulary = Self.common.count + rare.count
    let rank = min(vocabulary - 1, Int(exp(unit() * log(Double(vocabulary + 1)))) - 1)
    return rank < Self.common.count ? Self.common[rank] : rare[rank - Self.common.count]
  }

  private mutating func words(_ count: Int) -> String { (0..<count).map { _ in word() }.joined(separator: " ") }

  private mutating func uuid() -> String {
    let (high, low) = (next(), next())
    let hex = String(high, radix: 16).leftPadded(to: 16) + String(low, radix: 16).leftPadded(to: 16)
    let characters = Array(hex)
    return [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { String(characters[$0]) }.joined(separator: "-")
  }

  mutating func note(createdAt: Date) -> VoiceNote {
    let duration = Double(wordsPerNote) / 2.5
    var note = VoiceNote(
      id: uuid(), createdAt: createdAt, duration: duration, audioFileName: "", originalFileName: "sample.wav")
    var segments: [Transcript.Segment] = []
    var spoken = 0
    while spoken < wordsPerNote {
      let length = min(wordsPerNote - spoken, 10 + int(below: 11))
      let start = Double(spoken) / 2.5
      segments.append(
        .init(text: words(length).capitalizedFirst + ".", start: start, end: start + Double(length) / 2.5))
      spoken += length
    }
    note.transcript = Transcript(language: "en", duration: duration, segments: segments)
    note.title = words(2 + int(below: 4)).capitalizedFirst
    note.summary = words(25 + int(below: 20)).capitalizedFirst + "."
    note.tags = (0..<1 + int(below: 4)).map { _ in Self.common[int(below: Self.common.count)] }
    note.people = (0..<int(below: 4)).map { _ in Self.names[int(below: Self.names.count)] }
    note.actionItems = (0..<int(below: 4)).map { _ in
      NoteActionItem(
        id: uuid(), isCompleted: int(below: 3) == 0, task: words(4 + int(below: 6)).capitalizedFirst,
        people: (0..<int(below: 2)).map { _ in Self.names[int(below: Self.names.count)] })
    }
    note.processing = ProcessingState(stage: .done)
    return note
  }
}

extension String {
  fileprivate var capitalizedFirst: String { prefix(1).uppercased() + dropFirst() }

  fileprivate func leftPadded(to length: Int) -> String {
    String(repeating: "0", count: max(0, length - count)) + self
  }
}

extension NoteStore {
  /// Gives every note without a semantic index random unit vectors as if `model` had indexed it
  /// (a centroid and `passagesPerNote` passages), in one transaction: the library for the
  /// semantic search benchmark, whose cost does not depend on what the vectors mean.
  ///
  /// - Returns: How many notes were given vectors.
  @discardableResult
  package func addSampleVectors(model: String, dimension: Int, passagesPerNote: Int = 3, seed: UInt64 = 1) throws
    -> Int
  {
    var state = seed
    func vector() -> [Float] {
      TextEmbedder.normalized(
        (0..<dimension).map { _ in
          state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
          return Float(state >> 40) / Float(1 << 24) - 0.5
        })
    }
    let ids = try notesNeedingPassages(model: model)
    try database.transaction {
      for id in ids {
        let passages = (0..<passagesPerNote).map { _ in vector() }
        for (index, passage) in passages.enumerated() {
          try database.run(
            "INSERT INTO note_passages (note_id, passage, kind, start, end_time, text, vector) VALUES (?, ?, 'transcript', ?, ?, ?, ?)",
            [
              .text(id), .integer(Int64(index)), .real(Double(index) * 20), .real(Double(index + 1) * 20),
              .text("sample passage \(index)"), .blob(Self.blob(passage)),
            ])
        }
        try database.run(
          "INSERT INTO note_vectors (note_id, model, updated_at, vector) VALUES (?, ?, 0, ?)",
          [.text(id), .text(model), .blob(Self.blob(VectorIndex.centroid(of: passages, dimension: dimension)))])
      }
    }
    return ids.count
  }
}

extension NoteStore {
  /// Writes every centroid `model` made, row after row of little-endian Float32, to `file`: the
  /// matrix the semantic benchmark's numpy reference scans.
  package func exportCentroidMatrix(model: String, to file: URL) throws {
    var data = Data()
    _ = try database.query("SELECT vector FROM note_vectors WHERE model = ?", [.text(model)]) { row in
      if let blob = row.data(0) { data.append(blob) }
    }
    try data.write(to: file, options: .atomic)
  }
}
