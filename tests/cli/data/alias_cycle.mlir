#a = #b
#b = #ttg.slice<{dim = 1, parent = #a}>
tensor<64x64xf16, #a>
