import Testing

@testable import LanguageModels

@Suite struct GeneratedContentTests {
  private let document = """
    {"title":"Desert Days","description":"Three days in Joshua Tree","rationale":"Quiet trails","days":[\
    {"title":"Arrival","activities":[{"type":"hiking","title":"Hidden Valley"}]},\
    {"title":"Rocks","activities":[{"type":"sightseeing","title":"Skull Rock"},{"type":"dining","title":"Pie"}]},\
    {"title":"Stars","activities":[{"type":"hiking","title":"Ryan Mountain"}]}]}
    """

  @Test func jsonRoundTripKeepsOrder() throws {
    let text = #"{"zeta":1,"alpha":[true,null,2.5,"x\"y\n"],"mid":{"b":-3,"a":"é"}}"#
    let content = try GeneratedContent(json: text)
    #expect(content.jsonString == text)
    guard case .structure(_, let keys) = content.kind else {
      Issue.record("not a structure")
      return
    }
    #expect(keys == ["zeta", "alpha", "mid"])
    #expect(try GeneratedContent(json: content.jsonString) == content)
  }

  @Test func invalidJSONThrowsWithTheOffset() {
    #expect(
      throws: GeneratedContent.ConversionError.invalidJSON(offset: 5, reason: "expected ':' after a property name")
    ) {
      try GeneratedContent(json: #"{"a" 1}"#)
    }
  }

  /// Found by fuzzing (Fuzz/Corpus/JSON/number-out-of-range): `20E322` parsed as infinity, which
  /// the writer prints as `null`, so the content did not survive its own JSON.
  @Test func numbersBeyondDoubleAreInvalid() {
    #expect(throws: GeneratedContent.ConversionError.invalidJSON(offset: 6, reason: "number out of range")) {
      try GeneratedContent(json: #"{"a": 20E322}"#)
    }
    #expect(throws: GeneratedContent.ConversionError.invalidJSON(offset: 0, reason: "number out of range")) {
      try GeneratedContent(json: "-1e400")
    }
    #expect(throws: Never.self) { try GeneratedContent(json: "1.7976931348623157e308") }
  }

  @Test func contentBuildsTheValue() throws {
    let itinerary = try Itinerary(GeneratedContent(json: document))
    #expect(itinerary.title == "Desert Days")
    #expect(itinerary.days.count == 3)
    #expect(itinerary.days[1].activities.map(\.type) == [.sightseeing, .dining])
    #expect(itinerary.generatedContent.jsonString == document)
  }

  @Test func optionalsAndEnumsWithPayloadsConvert() throws {
    let rating = try Rating(
      GeneratedContent(
        json: #"{"stars":4,"code":"ABC-1234","email":"a@b.com","tags":["good"],"weight":1.5}"#))
    #expect(rating.comment == nil)
    #expect(rating.stars == 4)
    #expect(!rating.generatedContent.jsonString.contains("comment"))

    let shapes: [Shape] = [.circle(radius: 2), .label("hi", size: nil), .label("yo", size: 3), .empty]
    for shape in shapes {
      #expect(try Shape(GeneratedContent(json: shape.generatedContent.jsonString)) == shape)
    }
    #expect(Shape.label("yo", size: 3).generatedContent.jsonString == #"{"case":"label","_0":"yo","size":3}"#)
  }

  @Test func conversionErrorsNameTheProblem() {
    #expect(throws: GeneratedContent.ConversionError.missingProperty("title")) {
      try DayPlan(GeneratedContent(json: #"{"activities":[]}"#))
    }
    #expect(throws: GeneratedContent.ConversionError.unknownCase("swimming", type: "ActivityType")) {
      try ActivityType(GeneratedContent(json: #""swimming""#))
    }
    #expect(throws: GeneratedContent.ConversionError.numberOutOfRange(2.5, type: "Int")) {
      try Int(GeneratedContent(json: "2.5"))
    }
  }

  @Test func propertiesInitializerKeepsOrderAndValueReadsThem() throws {
    let content = GeneratedContent(properties: ["b": 1, "a": "x", "c": [true, false]])
    #expect(content.jsonString == #"{"b":1,"a":"x","c":[true,false]}"#)
    #expect(try content.value(Int.self, forProperty: "b") == 1)
    #expect(try content.value(String?.self, forProperty: "missing") == nil)
    let elements = GeneratedContent(elements: [1, "two"] as [any ConvertibleToGeneratedContent])
    #expect(elements.jsonString == #"[1,"two"]"#)
  }

  @Test func generationIDPropertyReceivesTheContentID() throws {
    let id = GenerationID()
    let tracked = try Tracked(GeneratedContent(json: #"{"name":"n"}"#, id: id))
    #expect(tracked.id == id)
    #expect(tracked.name == "n")
  }

  @Test func everyPrefixGivesAPartialValueWithFieldsInOrder() throws {
    var previousFields = 0
    var previousTitleLength = 0
    var sawPartialTitle = false
    let id = GenerationID()
    var firstDayID: GenerationID?
    for end in document.indices {
      let prefix = String(document[..<end])
      let content = GeneratedContent(partialJSON: prefix, id: id)
      #expect(!content.isComplete)
      let partial = Itinerary.PartiallyGenerated(content)
      let fields = [partial.title != nil, partial.description != nil, partial.rationale != nil, partial.days != nil]
      let present = fields.prefix { $0 }.count
      // Fields appear in declaration order and never disappear.
      #expect(fields.filter { $0 }.count == present, "fields out of order at \(prefix)")
      #expect(present >= previousFields, "a field disappeared at \(prefix)")
      previousFields = present
      if let title = partial.title {
        #expect("Desert Days".hasPrefix(title))
        #expect(title.count >= previousTitleLength)
        previousTitleLength = title.count
        sawPartialTitle = sawPartialTitle || title == "Desert D"
      }
      if let day = partial.days?.first {
        firstDayID = firstDayID ?? day.id
        #expect(day.id == firstDayID, "the first day's identifier changed at \(prefix)")
      }
    }
    #expect(sawPartialTitle)
    let whole = GeneratedContent(partialJSON: document, id: id)
    #expect(whole.isComplete)
    let final = Itinerary.PartiallyGenerated(whole)
    #expect(final.days?.count == 3)
    #expect(final.days?[2].activities?.first?.title == "Ryan Mountain")
    #expect(final.id == id)
  }

  @Test func partialJSONHandlesUnfinishedValues() throws {
    let title = GeneratedContent(partialJSON: #"{"title": "Joshua Tr"#)
    #expect(title.jsonString == #"{"title":"Joshua Tr"}"#)
    #expect(GeneratedContent(partialJSON: #"{"n": 12"#).jsonString == "{}")
    #expect(GeneratedContent(partialJSON: #"{"n": 12,"#).jsonString == #"{"n":12}"#)
    #expect(GeneratedContent(partialJSON: #"{"ok": tr"#).jsonString == #"{"ok":true}"#)
    #expect(GeneratedContent(partialJSON: #"{"a": "x\"#).jsonString == #"{"a":"x"}"#)
    #expect(GeneratedContent(partialJSON: #"{"a": "\u00e9\u00"#).jsonString == #"{"a":"é"}"#)
    #expect(GeneratedContent(partialJSON: #"{"list": [1, 2, {"k"#).jsonString == #"{"list":[1,2,{}]}"#)
    #expect(GeneratedContent(partialJSON: "").kind == .null)
    let partialEnum = Activity.PartiallyGenerated(GeneratedContent(partialJSON: #"{"type": "hik"#))
    #expect(partialEnum.type == nil)
    let wholeEnum = Activity.PartiallyGenerated(GeneratedContent(partialJSON: #"{"type": "hiking", "ti"#))
    #expect(wholeEnum.type == .hiking)
    #expect(wholeEnum.title == nil)
  }

  @Test func asPartiallyGeneratedFillsEveryProperty() throws {
    let itinerary = try Itinerary(GeneratedContent(json: document))
    let partial = itinerary.asPartiallyGenerated()
    #expect(partial.title == "Desert Days")
    #expect(partial.days?.count == 3)
    #expect(partial.days?[0].activities?[0].type == .hiking)
  }
}
