"""Names typed at a shared table (:mod:`aluette.store.names`; issue 22, "Names"): every script's real names are
accepted, look-alikes, invisible names and the pages' own labels are refused, and a refused name changes nothing."""

from __future__ import annotations

import unicodedata

import pytest

from aluette.errors import InputTooLongError, TableError
from aluette.seats import SEATS
from aluette.store.names import clean_name, skeleton


@pytest.mark.parametrize("name", [
    "Ann", "Anne-Marie", "O'Brien", "Zoé", "Łukasz", "Ολυμπία", "Иванова", "Anna Иванова",
    "नमस्ते",   # Hindi: vowel signs and a virama (combining marks) after letters
    "สมชาย",    # Thai: a vowel mark after a consonant
    "김민준", "さくら", "山田花子", "ヤマダ太郎",  # Korean; Japanese kana, kanji, both in one word
    "محمد", "דוד", "J.R.", "Léa 2",
    "प्रिया", "กิ่งแก้ว", "ศรีสุข",  # Hindi's conjunct (a virama); Thai's vowel and tone marks on one consonant
    "தமிழ்", "ਪੰਜਾਬੀ", "বাংলা", "မြန်မာ", "ខ្មែរ", "Nguyễn", "Đặng", "Оксана",  # Оксана: Cyrillic letters only
])
def test_real_names_of_every_script_are_accepted(name):
    assert clean_name(name, "a player's name", 30) == unicodedata.normalize("NFKC", name)


@pytest.mark.parametrize("typed, stored", [
    ("Ａｎｎ", "Ann"), ("𝐀𝐧𝐧", "Ann"), ("ﬁona", "fiona"),   # full-width, mathematical bold, a ligature
    ("Ann\u3000Lee", "Ann Lee"), ("  Ann   Lee ", "Ann Lee"),  # an ideographic space; spaces collapsed
    ("Zoe\u0301", "Zoé"),  # an accent typed apart is the accented letter
])
def test_a_name_is_stored_in_its_compatibility_normal_form(typed, stored):
    """UTS #39 reads an identifier in NFKC: the name stored (and compared) is the one every keyboard types."""
    assert clean_name(typed, "a player's name", 30) == stored == unicodedata.normalize("NFKC", stored)


@pytest.mark.parametrize("name, message", [
    ("\u3164\u3164", "invisible letters"),                 # Hangul fillers only
    ("Bob\u3164", "invisible letters"),
    ("Аlice", "mixes two alphabets in one word \\(Cyrillic and Latin"),  # Cyrillic А
    ("Pаul", "mixes two alphabets"),
    ("...", "at least one letter or digit"),
    ("\u0301a", "must follow a letter"),                  # a combining accent with nothing before it
    ("a\u200bb", "not allowed"),                          # zero-width space
    ("Ann\u034f", "invisible letters"),                   # the combining grapheme joiner (drawn as nothing)
    ("Ann\ufe0f", "invisible letters"),                   # a variation selector
    ("\u17b4", "invisible letters"),                      # Khmer's inherent vowel, alone
    ("Q" + "\u0301\u0300\u0302\u0303\u0308", "too many marks on one letter"),  # five accents on one letter
    ("Ann\u0334\u0334", "the same mark twice"),  # (marks NFKC does not compose with the letter)
    # and marks it does compose: the first acute made "é", the second then passed as the first of its kind (a
    # tester's review); marks are counted on the decomposed name
    ("Rene\u0301\u0301", "the same mark twice"),
    ("e" + "\u0301\u0300\u0302\u0303\u0308", "too many marks on one letter"),
    ("<b>", "'<' in '<b>' is not allowed"),
])
def test_look_alike_and_invisible_names_are_refused(name, message):
    with pytest.raises(TableError, match=message):
        clean_name(name, "a player's name", 30)


def test_a_long_name_is_refused_before_it_is_read():
    with pytest.raises(InputTooLongError, match=r"at most 30 characters.*\(100,000 characters\)"):
        clean_name("x" * 100_000, "a player's name", 30)


def test_look_alikes_share_a_skeleton():
    assert skeleton("Аlice") == skeleton("alice") == skeleton("ALICE") == skeleton("Alicé")
    assert skeleton("Ann") != skeleton("Anne")


class TestAtATable:
    @pytest.mark.parametrize("label", ["a bot", "A Bot", "you", "empty", "bot North", "bot W",
                                       "un robot", "vous", "а bot", "ʙot North", "ｂｏｔ　Ｎｏｒｔｈ"])
    def test_the_pages_own_labels_are_no_ones_name(self, service, label):
        service.create_table("Labels")
        with pytest.raises(TableError, match="what the page writes for a seat"):
            service.take_seat("labels", "N", label)
        assert service.table_info("labels").free_seats == tuple(SEATS)

    def test_a_name_that_looks_like_another_players_is_refused(self, service):
        service.create_table("Twins")
        service.take_seat("twins", "N", "Alice")
        for look_alike in ("ALICE", "Alicé", "Al ice"):
            with pytest.raises(TableError, match="looks like 'Alice', already at this table"):
                service.take_seat("twins", "E", look_alike)
        assert service.table_info("twins").free_seats == (SEATS[1], SEATS[2], SEATS[3])
        service.take_seat("twins", "E", "Alicia")  # another name is fine
        with pytest.raises(TableError, match="looks like 'Alicia'"):
            service.take_seat("twins", "S", "Аӏісіа")  # every letter a Cyrillic look-alike
        assert service.table_info("twins").free_seats == (SEATS[2], SEATS[3])

    def test_a_table_name_that_looks_like_an_open_tables_is_refused(self, service):
        service.create_table("Salle A")
        for look_alike in ("Salle А", "SALLE-A", "Ѕаӏӏе A"):  # a Cyrillic А; punctuation; a Cyrillic word
            with pytest.raises(TableError, match="would look like the open table 'Salle A'"):
                service.create_table(look_alike)
        assert service.table_names() == ["Salle A"]
        service.create_table("Salle B")  # another name is fine


@pytest.mark.parametrize("player, others", [(None, ()), (12, ()), ("Ann", ["Bob", None])])
def test_a_name_that_is_not_text_is_refused_by_check_not_like(player, others):
    # a tester's review (stop 38): Python's AttributeError, not the project's error
    from aluette.errors import TableError
    from aluette.store.names import check_not_like
    with pytest.raises(TableError, match="a player's name must be text"):
        check_not_like(player, others)

