"""The premium layouts drawn in RULES.md, copied verbatim (tests must not read ../shared).

W 3W, w 2W, T 3L, D 2L, * centre without bonus, . plain.
"""

WORDFEUD = """
T . . . W . . D . . W . . . T
. D . . . T . . . T . . . D .
. . w . . . D . D . . . w . .
. . . T . . . w . . . T . . .
W . . . w . D . D . w . . . W
. T . . . T . . . T . . . T .
. . D . D . . . . . D . D . .
D . . w . . . * . . . w . . D
. . D . D . . . . . D . D . .
. T . . . T . . . T . . . T .
W . . . w . D . D . w . . . W
. . . T . . . w . . . T . . .
. . w . . . D . D . . . w . .
. D . . . T . . . T . . . D .
T . . . W . . D . . W . . . T
"""
TURKISH = """
. . W . . D . . . D . . W . .
. T . . . . D . D . . . . T .
W . . . . . . w . . . . . . W
. . . w . . . . . . . w . . .
. . . . T . . . . . T . . . .
D . . . . D . . . D . . . . D
. D . . . . D . D . . . . D .
. . w . . . . w . . . . w . .
. D . . . . D . D . . . . D .
D . . . . D . . . D . . . . D
. . . . T . . . . . T . . . .
. . . w . . . . . . . w . . .
W . . . . . . w . . . . . . W
. T . . . . D . D . . . . T .
. . W . . D . . . D . . W . .
"""
CLASSIC = """
W . . D . . . W . . . D . . W
. w . . . T . . . T . . . w .
. . w . . . D . D . . . w . .
D . . w . . . D . . . w . . D
. . . . w . . . . . w . . . .
. T . . . T . . . T . . . T .
. . D . . . D . D . . . D . .
W . . D . . . w . . . D . . W
. . D . . . D . D . . . D . .
. T . . . T . . . T . . . T .
. . . . w . . . . . w . . . .
D . . w . . . D . . . w . . D
. . w . . . D . D . . . w . .
. w . . . T . . . T . . . w .
W . . D . . . W . . . D . . W
"""

