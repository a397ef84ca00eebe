"""Card value tables shared by several games (index 0 is the ace)."""

FACE_TEN_ACE_ONE = (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10)
FACE_TEN_ACE_FIFTEEN = (15, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10)
TILE_NUMBERS = tuple(range(1, 14))
