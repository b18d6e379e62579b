# Compiles a file into the binary as a std::string_view, so core needs no Qt resource system
# and installed programs find their data without the source tree.
function(scaleview_embed_resource target input symbol)
    set(out ${CMAKE_CURRENT_BINARY_DIR}/embedded_${symbol}.cpp)
    add_custom_command(
        OUTPUT ${out}
        COMMAND ${CMAKE_COMMAND} -DINPUT=${input} -DOUTPUT=${out} -DSYMBOL=${symbol}
                -P ${PROJECT_SOURCE_DIR}/cmake/EmbedResourceScript.cmake
        DEPENDS ${input} ${PROJECT_SOURCE_DIR}/cmake/EmbedResourceScript.cmake
        COMMENT "Embedding ${input}")
    target_sources(${target} PRIVATE ${out})
endfunction()
