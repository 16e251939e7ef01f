"""Cards, the deck and the ranking.

Source of the ranking oracle below: the rules sheet's "card rankings" section (GameRules.com, all five translations
agree) and pagat.com's Aluette page, typed here from the text, high to low; cards of one group are equal.
"""

import copy
import pickle

import pytest

from aluette import DECK, NICKNAMED, RANKING, TOP_FOUR, Card, Suit, UnknownCardError, parse_cards, ranking_table

SEEDS_RANKING = [
    "3O", "3C", "2O", "2C", "9C", "9O", "2B", "2E",
    "1O 1C 1B 1E", "12O 12C 12B 12E", "11O 11C 11B 11E", "10O 10C 10B 10E",
    "9E 9B", "8O 8C 8B 8E", "7O 7C 7B 7E", "6O 6C 6B 6E", "5O 5C 5B 5E", "4O 4C 4B 4E", "3E 3B",
]
GROUP = {code: i for i, group in enumerate(SEEDS_RANKING) for code in group.split()}


class TestDeck:
    def test_48_distinct_cards_four_suits_twelve_ranks(self):
        # pagat and the rules sheet: a 48-card Spanish deck, suits coins, cups, batons, swords, ranks 1-12
        assert len(DECK) == 48 and len(set(DECK)) == 48
        assert {c.suit for c in DECK} == set(Suit)
        assert sorted({c.rank for c in DECK}) == list(range(1, 13))
        assert [c.index for c in DECK] == list(range(48))

    def test_cards_are_canonical_and_immutable(self):
        assert Card(3, Suit.COINS) is Card.parse("3O") is Card(3, "o")
        assert pickle.loads(pickle.dumps(DECK[5])) is DECK[5]
        assert copy.deepcopy(DECK[7]) is DECK[7]
        with pytest.raises(AttributeError):
            DECK[0].rank = 5

    def test_str_is_code_and_repr_pastes_back(self):
        card = Card.parse("king of swords")
        assert str(card) == "12E"
        assert eval(repr(card), {"Card": Card}) is card


class TestRanking:
    def test_19_classes_strength_19_to_1(self):
        assert len(RANKING) == 19
        assert Card.parse("3O").strength == 19 and Card.parse("3E").strength == 1 == Card.parse("3B").strength

    @pytest.mark.parametrize("a", DECK, ids=str)
    def test_every_pair_against_the_seeds_table(self, a):
        # 48 x 48 pairs: higher group beats, same group ties, whatever the suits
        for b in DECK:
            assert a.beats(b) == (GROUP[a.code] < GROUP[b.code])
            assert a.ties(b) == (GROUP[a.code] == GROUP[b.code])

    def test_nicknames_of_the_top_eight(self):
        # the rules sheet, "card rankings": the traditional names
        names = {"3O": "Monsieur", "3C": "Madame", "2O": "le Borgne", "2C": "la Vache", "9C": "Grand-neuf",
                 "9O": "Petit-neuf", "2B": "Deux de chêne", "2E": "Deux d'écrit"}
        assert {str(c): c.nickname for c in NICKNAMED} == names
        assert all(c.nickname is None for c in DECK if c.code not in names)
        assert [str(c) for c in TOP_FOUR] == ["3O", "3C", "2O", "2C"]

    def test_ranking_table_is_a_dataframe_of_the_classes(self):
        table = ranking_table()
        assert list(table["strength"]) == list(range(19, 0, -1))
        assert table["count"].sum() == 48
        assert list(table["cards"]) == SEEDS_RANKING


class TestParse:
    @pytest.mark.parametrize("text,code", [
        ("3O", "3O"), ("3c", "3C"), ("12E", "12E"), ("10 b", "10B"), (" 1o ", "1O"),
        ("3 of coins", "3O"), ("King of Swords", "12E"), ("cavalière of cups", "11C"), ("jack of batons", "10B"),
        ("ace of coins", "1O"), ("three of cups", "3C"), ("rey de espadas", "12E"), ("sota de oros", "10O"),
        ("Monsieur", "3O"), ("MADAME", "3C"), ("le borgne", "2O"), ("borgne", "2O"), ("la vache", "2C"),
        ("Vache", "2C"), ("grand-neuf", "9C"), ("Petit neuf", "9O"), ("deux de chêne", "2B"),
        ("Deux de chene", "2B"), ("deux d'ecrit", "2E"), ("Deux d’écrit", "2E"), ("deux ďécrit", "2E"),
    ])
    def test_accepted_forms(self, text, code):
        # Card.parse's documented forms: codes, English and nicknames, any case, with or without accents
        assert str(Card.parse(text)) == code

    @pytest.mark.parametrize("text", ["", "13O", "0C", "3X", "queen of harts", "monsieurs", "le", "l'", "las de coupe",
                                      "3 of", 42, None])
    def test_unknown_card_names_the_text_and_the_forms(self, text):
        with pytest.raises(UnknownCardError) as info:
            Card.parse(text)
        assert repr(text) in str(info.value)
        assert isinstance(info.value, ValueError)

    def test_message_lists_accepted_forms(self):
        with pytest.raises(UnknownCardError, match=r"'3O'.*king of swords.*Monsieur"):
            Card.parse("joker")

    def test_constructor_validates(self):
        with pytest.raises(UnknownCardError, match="rank"):
            Card(13, Suit.COINS)
        with pytest.raises(UnknownCardError, match="suit"):
            Card(3, "Z")

    def test_parse_cards_spaces_commas(self):
        assert [str(c) for c in parse_cards("3O 2C 12E")] == ["3O", "2C", "12E"]
        assert [str(c) for c in parse_cards("Monsieur, king of swords")] == ["3O", "12E"]
        with pytest.raises(UnknownCardError, match="'ZZ'"):
            parse_cards("3O ZZ")


class TestPictures:
    def test_card_svg_shows_index_suit_and_nickname(self):
        svg = Card.parse("2C")._repr_svg_()
        assert svg.startswith("<svg") and 'data-card="2C"' in svg and "la Vache" in svg and ">2<" in svg
        assert "<title>2 of cups (la Vache)</title>" in svg

    def test_plain_card_has_no_nickname_text(self):
        svg = Card.parse("5B")._repr_svg_()
        assert "5 of batons" in svg and "font-style" not in svg

    def test_html_of_card_contains_its_svg(self):
        assert 'data-card="12E"' in Card.parse("12E")._repr_html_()

    def test_french_suited_faces_are_an_option_and_the_default_is_unchanged(self):
        # issue 19 §3: an ordinary deck without its 10s (coins = diamonds, cups = hearts, batons = clubs, swords =
        # spades; the project's source list: catsatcards.com, loisirs.savoir.fr, jeuxloisirs.net)
        from aluette.pictures import card_svg, cards_html, french_name, trick_html
        monsieur, queen = Card.parse("3O"), Card.parse("11C")
        assert card_svg(monsieur) == card_svg(monsieur, deck="spanish")
        french = card_svg(monsieur, deck="french")
        assert french != card_svg(monsieur) and "<title>3 of coins (Monsieur): 3 of diamonds</title>" in french
        assert 'data-card="3O"' in french and "Monsieur" in french
        assert ">D<" in card_svg(queen, deck="french") and french_name(queen) == "queen of hearts"
        assert french_name(Card.parse("12E")) == "king of spades" and french_name(Card.parse("10B")) == "jack of clubs"
        assert ">R<" in card_svg(Card.parse("12E"), deck="french") and ">V<" in card_svg(Card.parse("10B"), deck="french")
        assert card_svg(monsieur, deck="french") in cards_html([monsieur], width=72, deck="french")
        assert "3 of diamonds" in trick_html([("N", monsieur)], deck="french")
        assert Card.parse(french_name(queen)) is queen  # the parser reads the picture's name back

    def test_an_unknown_deck_is_refused(self):
        from aluette import AluetteError
        from aluette.pictures import card_svg
        with pytest.raises(AluetteError, match="unknown deck 'tarot'"):
            card_svg(Card.parse("3O"), deck="tarot")


def test_parse_cards_mixes_commas_and_spaces():
    assert [str(c) for c in parse_cards("3O 2C, la vache; king of swords")] == ["3O", "2C", "2C", "12E"]
    with pytest.raises(UnknownCardError, match="'ZZ'"):
        parse_cards("3O ZZ, 1E")


def test_hand_refuses_a_card_twice():
    from aluette import AluetteError, Hand
    with pytest.raises(AluetteError, match="given twice: 3O"):
        Hand("3O 2C 3O")
    assert str(Hand("2C 3O 1E")) == "3O 2C 1E"  # sorted high to low


class TestFrench:
    """French card names (issue 8, §4). Sources of the names: trictrac.net's Aluette page ("Bâton, coupe, deniers et
    épée"), regles2jeux.fr ("épée, coupe, denier et bâton"; ranks "As, Roi, Dame, Valet"), the rules sheet
    ("cavalières")."""

    @pytest.mark.parametrize("text,code", [
        ("roi de deniers", "12O"), ("valet d'épées", "10E"), ("cavalière de coupes", "11C"),  # issue 8's examples
        ("as de bâtons", "1B"), ("As de Batons", "1B"), ("AS DE BÂTONS", "1B"),                # any case, accents
        ("cavalier de bâton", "11B"), ("dame de coupe", "11C"),                                # regles2jeux: Dame
        ("deux de deniers", "2O"), ("trois de coupes", "3C"), ("quatre d'épées", "4E"), ("cinq de coupes", "5C"),
        ("six de bâtons", "6B"), ("sept de deniers", "7O"), ("huit de coupes", "8C"), ("neuf d'épée", "9E"),
        ("valet d’épées", "10E"), ("valet d' epees", "10E"), ("roi de denier", "12O"),
    ])
    def test_french_names(self, text, code):
        assert Card.parse(text) is Card.parse(code)

    def test_french_names_of_the_named_cards(self):
        # the rules sheet's ranking: Monsieur is the 3 of coins (trois de deniers), la Vache the 2 of cups (deux de
        # coupes)
        assert Card.parse("trois de deniers").nickname == "Monsieur"
        assert Card.parse("deux de coupes").nickname == "la Vache"
        assert Card.parse("deux de bâtons") is Card.parse("Deux de chêne")

    @pytest.mark.parametrize("text,code", [("la Grande Dame", "3C"), ("grande dame", "3C"), ("La grande-dame", "3C"),
                                           ("la balançoire", "2B"), ("BALANCOIRE", "2B"), ("la balancoire", "2B")])
    def test_other_traditional_names(self, text, code):
        # Jacques Berthomeau, the game in the Vendée (http://www.berthomeau.com/article-5185569.html): 'le 3 de
        # "coupe" dit La grande Dame', 'le 2 de "bâton" dit deux de chêne ou la balançoire'
        assert Card.parse(text) is Card.parse(code)
        assert Card.parse("la Grande Dame").nickname == "Madame"  # the ranking keeps one nickname per card
        with pytest.raises(UnknownCardError, match="'la Grande Dame', 'la balançoire'"):
            Card.parse("la petite dame")

    def test_in_a_list(self):
        assert parse_cards("roi de deniers, valet d'épées; 3O 2C") == tuple(map(Card.parse, ("12O", "10E", "3O",
                                                                                              "2C")))

    def test_unknown_card_names_the_french_forms(self):
        with pytest.raises(UnknownCardError, match=r"French \('roi de deniers', 'valet d'épées', 'cavalière de "
                                                   r"coupes'.*ordinary deck's name \('3 of diamonds'"):
            Card.parse("roi de corps")

    @pytest.mark.parametrize("text,code", [
        # issue 19 §4: what a French class types, article and all
        ("le grand neuf", "9C"), ("le Grand 9", "9C"), ("le petit neuf", "9O"), ("Petit 9", "9O"),
        ("le deux de chêne", "2B"), ("le 2 de Chêne", "2B"), ("le deux d'écrit", "2E"), ("2 d'écrit", "2E"),
        ("l'as de coupe", "1C"), ("L’as de coupes", "1C"), ("l' as de bâton", "1B"), ("le roi de deniers", "12O"),
        ("la cavalière d'épées", "11E"), ("la dame de coupe", "11C"), ("le valet de bâtons", "10B"),
        ("as d'ors", "1O"), ("roi d'or", "12O"), ("trois d'ors", "3O"), ("l'as d'ors", "1O"),
        ("the ace of cups", "1C"), ("la Vache", "2C"), ("la grande dame", "3C"),
    ])
    def test_with_the_article(self, text, code):
        assert Card.parse(text) is Card.parse(code)

    def test_the_eleven_is_a_cavaliere(self):
        # the rules sheet ("cavalières") and pagat.com (« Les quatre Cavalières »): never "cavalier"
        assert Card.parse("11C").name == "cavalière of cups" and Card.parse("11C").class_name == "cavalières"
        assert not any("cavalier " in c.name or c.class_name == "cavaliers" for c in DECK)


class TestOrdinaryDeck:
    """An ordinary 52-card French deck without its four 10s: coins = diamonds, cups = hearts, batons = clubs, swords =
    spades, the queen (dame) the cavalière. Sources, as the project's source list reports them: catsatcards.com (the
    mapping), loisirs.savoir.fr (the deck minus the 10s), jeuxloisirs.net (« Monsieur : Trois de Carreau »)."""

    @pytest.mark.parametrize("text,code", [
        ("trois de carreau", "3O"), ("Trois de Carreau", "3O"), ("3 of diamonds", "3O"), ("trois de cœur", "3C"),
        ("3 of hearts", "3C"), ("deux de carreau", "2O"), ("deux de cœur", "2C"), ("neuf de cœur", "9C"),
        ("neuf de carreau", "9O"), ("deux de trèfle", "2B"), ("2 of clubs", "2B"), ("deux de pique", "2E"),
        ("2 of spades", "2E"), ("queen of hearts", "11C"), ("la dame de cœur", "11C"), ("dame de coeurs", "11C"),
        ("roi de piques", "12E"), ("valet de trèfles", "10B"), ("l'as de pique", "1E"), ("ace of spades", "1E"),
        ("DAME DE CŒUR", "11C"),
    ])
    def test_names(self, text, code):
        assert Card.parse(text) is Card.parse(code)

    def test_the_named_cards_on_an_ordinary_deck(self):
        assert [Card.parse(t).nickname for t in ("trois de carreau", "trois de cœur", "deux de carreau",
                                                 "deux de cœur", "neuf de cœur", "neuf de carreau",
                                                 "deux de trèfle", "deux de pique")] == [c.nickname for c in NICKNAMED]

    def test_a_ten_is_no_card(self):
        # the ordinary deck plays without its 10s: "10 of hearts" is no card (the code 10C is the jack of cups)
        for text in ("10 of hearts", "dix de cœur", "ten of spades"):
            with pytest.raises(UnknownCardError, match="unknown card"):
                Card.parse(text)


class TestUnicodeAndLength:
    """Card.parse normalises with NFKC once, so full-width and mathematical letters read as plain ones."""

    @pytest.mark.parametrize("text,code", [("３Ｏ", "3O"), ("３ of coins", "3O"), ("𝐌𝐨𝐧𝐬𝐢𝐞𝐮𝐫", "3O"),
                                           ("１２ｅ", "12E"), ("ｒｏｉ ｄｅ ｄｅｎｉｅｒｓ", "12O")])
    def test_nfkc(self, text, code):
        assert Card.parse(text) is Card.parse(code)

    def test_long_text_refused_before_work_with_a_short_quote(self):
        with pytest.raises(UnknownCardError, match=r"at most 60 characters") as error:
            Card.parse("roi " * 250_000)
        assert len(str(error.value)) < 200

    def test_long_list_refused(self):
        with pytest.raises(UnknownCardError, match=r"too much text for cards.*at most 4000 characters") as error:
            parse_cards("3O " * 100_000)
        assert len(str(error.value)) < 200

    def test_a_whole_deck_of_codes_still_reads(self):
        assert len(parse_cards(" ".join(c.code for c in DECK))) == 48
