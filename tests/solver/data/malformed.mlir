#ttg.linear<{register = [[0, 1]], lane = [[1, 0], [2, 0
