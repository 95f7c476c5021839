"""Territory names as a person types them: ids, English or Italian names, the compact map's three-letter codes,
unambiguous prefixes, a did-you-mean for near misses, and Tab completion (also after `long ` and `hold `).
"""

from __future__ import annotations

import difflib
import unicodedata
from collections.abc import Callable, Iterable

from conquista.errors import ConquistaError
from conquista.rules.mapdata import GameMap

# The compact map's labels (80 columns leave 7 per territory): short enough to fit, unique, and typeable.
CODES: dict[str, str] = {
    "alaska": "ALA", "northwest_territory": "NWT", "greenland": "GRE", "alberta": "ALB", "ontario": "ONT",
    "quebec": "QUE", "western_us": "WUS", "eastern_us": "EUS", "central_america": "CAM", "venezuela": "VEN",
    "peru": "PER", "brazil": "BRA", "argentina": "ARG", "iceland": "ICE", "scandinavia": "SCA",
    "great_britain": "GBR", "northern_europe": "NEU", "ukraine": "UKR", "western_europe": "WEU",
    "southern_europe": "SEU", "north_africa": "NAF", "egypt": "EGY", "congo": "CON", "east_africa": "EAF",
    "south_africa": "SAF", "madagascar": "MAD", "ural": "URA", "siberia": "SIB", "yakutsk": "YAK",
    "kamchatka": "KAM", "irkutsk": "IRK", "mongolia": "MON", "japan": "JAP", "afghanistan": "AFG",
    "china": "CHI", "middle_east": "MEA", "india": "IND", "siam": "SIA", "indonesia": "INO",
    "new_guinea": "NGU", "western_australia": "WAU", "eastern_australia": "EAU",
}
# Words that take a territory name after them, so Tab completes the name that follows.
NAME_PREFIXES = ("long ",)


def fold(text: str) -> str:
    """Lower case without accents or separators, so 'Perù', 'peru' and 'PERU' all match."""
    plain = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return "".join(ch for ch in plain.lower() if ch.isalnum())


class NameIndex:
    """Territory lookup by id, English or Italian name, compact-map code, or an unambiguous prefix of a name."""

    def __init__(self, game_map: GameMap, commands: Iterable[str] = (), help_text: str = "") -> None:
        self.help_text = help_text
        self.display = {t.id: t.name_en for t in game_map.territories}
        self.names: dict[str, str] = {}
        for t in game_map.territories:
            for name in (t.id, t.name_en, t.name_it):
                self.names[fold(name)] = t.id
        self.codes = {fold(CODES[t.id]): t.id for t in game_map.territories if t.id in CODES}
        self.completions = sorted({n for t in game_map.territories for n in (t.name_en, t.name_it)} | set(commands))

    def resolve(self, text: str) -> str:
        key = fold(text)
        if not key:
            raise ConquistaError(f"type a territory or a button name ({self.help_text or 'help lists the commands'})")
        if key in self.names:
            return self.names[key]
        if key in self.codes:
            return self.codes[key]
        matches = {tid for name, tid in self.names.items() if name.startswith(key)}
        if len(matches) == 1:
            return matches.pop()
        if matches:
            shown = ", ".join(sorted(self.display[t] for t in matches)[:5])
            raise ConquistaError(f"{text!r} could be {shown}: type more of the name")
        close = difflib.get_close_matches(key, list(self.names), n=3, cutoff=0.6) if len(key) <= 60 else []
        suggestions = list(dict.fromkeys(self.display[self.names[c]] for c in close))
        quoted = repr(text) if len(text) <= 60 else repr(text[:57] + "...")   # a whole line of garbage is not shown
        if suggestions:
            raise ConquistaError(f"no territory {quoted}: did you mean {' or '.join(suggestions)}?")
        raise ConquistaError(f"no territory or command {quoted} ({self.help_text or 'help lists the commands'})")


def completer(options: list[str]) -> Callable[[str, int], str | None]:
    """A readline completer over the whole line: names and commands, and names again after `long `."""

    def complete(text: str, state: int) -> str | None:
        head = next((p for p in NAME_PREFIXES if text.lower().startswith(p)), "")
        folded = fold(text[len(head):])
        matches = [head + o for o in options if fold(o).startswith(folded)]
        return matches[state] if state < len(matches) else None

    return complete
